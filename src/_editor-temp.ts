/**
 * Whether `name` is a file an editor writes beside the one it saves, never a
 * file of the prompt: vim's swap files (`.rules.md.swp`, `.swo`, … `.swa`)
 * and its write test (`4913`, a name of digits only), `~` backups, emacs'
 * auto-save (`#rules.md#`) and lock (`.#rules.md`) files, JetBrains' safe
 * write (`rules.md___jb_tmp___`, `___jb_old___`). `watch` does not count
 * them as changes (a save also changes the file itself), and a layer's
 * folder listing passes them in silence.
 */
export function isEditorTemp(name: string): boolean {
  return (
    /^\..+\.sw[a-p]$/.test(name) ||
    /^\d+$/.test(name) ||
    name.endsWith("~") ||
    (name.length > 1 && name.startsWith("#") && name.endsWith("#")) ||
    name.startsWith(".#") ||
    name.endsWith("___jb_tmp___") ||
    name.endsWith("___jb_old___")
  );
}

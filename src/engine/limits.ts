import { MAX_HELPER_TEXT } from "../../helpers/index.js";

// Bounds on what one template may ask of the engine. Section templates and
// partials come from project folders, and render runs outside the gathering
// deadline, so a template must not be able to make a render slow: each limit
// turns an input that would take seconds (or forever) into a TemplateError,
// and the section falls back to the version below it. Every limit sits far
// above what a real prompt template needs.

/**
 * Deepest nesting of blocks, `{{else x}}` chains and subexpressions in one
 * template. Handlebars' parser copies its whole stack on each step, so its
 * cost is length × depth: 40,000 nested blocks take seconds. Real prompt
 * templates nest a handful deep.
 */
export const MAX_TEMPLATE_NESTING = 100;

/**
 * Most tags (`{{…}}`, comments and escaped `\{{` included) in one template. Compiling costs
 * tens of microseconds per tag, so a megabyte of tags would take many
 * seconds; the builtin sections hold about 60 together.
 */
export const MAX_TEMPLATE_TAGS = 5_000;

/**
 * Most partial calls (`{{> name}}`, `{{#> name}}`) in one template. Handlebars
 * compiles a call to a partial into several hundred microseconds of code
 * generation, about ten times a plain tag's, in one synchronous step no
 * render check can interrupt: a trusted project's section of 4,000 calls
 * compiled for 1.5 s before its render first read the stop time (fx89c's
 * record, fx92d). 500 compile in some 0.1-0.2 s; a real template calls a
 * handful (the builtin prompts none, the snapshot scenarios at most one),
 * and a call inside a loop is one call here (fx94a).
 */
export const MAX_TEMPLATE_PARTIAL_CALLS = 500;

/**
 * Most words (path parts, parameters, hash pairs, literals) inside the tags
 * of one template: a single tag with a megabyte of parameters costs as much to
 * compile as thousands of tags.
 */
export const MAX_TEMPLATE_WORDS = 20_000;

/**
 * Most tags, and words inside tags, of all the templates one prompt uses
 * together (sections, partials, SYSTEM_TEMPLATE.md), each counted once,
 * compiled for this prompt or taken compiled from the engine's cache. Handlebars'
 * code generation costs 50 to 300 microseconds a tag, so 40 sections of 5,000
 * tags each, every one under its own cap, took 62 s and 850 MB to render; and
 * counting only what a render compiled let each render of the same prompt
 * compile two more of them (review rev41b).
 */
export const MAX_PROMPT_TAGS = 2 * MAX_TEMPLATE_TAGS;
export const MAX_PROMPT_WORDS = 2 * MAX_TEMPLATE_WORDS;

/**
 * Most templates one prompt compiles (parses and generates code for), and
 * their tags together, every render of it (a fit's too): each template it
 * uses is kept compiled for the prompt's life, so it is compiled once, and
 * these bound what is left. Evicted from the engine's cache of 512 templates
 * by 515 tag-less partials, a 4,990-tag partial was compiled again on every
 * pass of a loop while the prompt counted its tags once: 224 s for one
 * render (review rev42d). A tag-less template costs about as much to compile
 * as a few tags.
 */
export const MAX_PROMPT_COMPILES = 2_048;
export const MAX_PROMPT_COMPILED_TAGS = 2 * MAX_PROMPT_TAGS;

/**
 * Most characters one prompt parses only to place its errors: a template
 * compiled ahead of time (the builtins, a few KB each) is parsed on its first
 * error that needs a place, once. A template compiled from its text takes
 * its places from that parse and is never parsed again for them; parsing
 * again cost by the text (1 MB of five tags: 150 ms to 1 s), which the
 * compile totals, counting tags, did not see (review rev47b F1).
 */
export const MAX_PROMPT_PLACE_PARSE_CHARS = 4 * 1024 * 1024;

/**
 * Deepest chain of partials inside partials in one render. The `{{> base}}`
 * chain of an override is at most two deep (project over user over builtin)
 * and shared partials add a few more; 16 leaves ample room while a partial
 * that includes itself stops at once. Partials that each include the next
 * twice reach at most 2^16 calls before this limit, which the call budget
 * below also bounds.
 */
export const MAX_PARTIAL_DEPTH = 16;

/**
 * Most text one render may produce, in UTF-16 code units, each counted once
 * where it is produced (a block's own text, not again in every block around
 * it). 8 MiB is twice what the largest model context holds (about a million
 * tokens); a section that large is a mistake, and partials that double their
 * output at every level reach it after about twenty levels. The helpers'
 * own cap (`join` refuses a longer result before building it) is this value.
 */
export const MAX_RENDER_OUTPUT = MAX_HELPER_TEXT;

/**
 * Most text of a whole prompt, every section together, in UTF-16 code units:
 * as much as one render may produce. Each section under its own cap, 120 of
 * them made a prompt past the longest string V8 can build, and the final join
 * threw `RangeError: Invalid string length`.
 */
export const MAX_PROMPT_CHARS = MAX_RENDER_OUTPUT;

/**
 * Most helper calls, block bodies and partials run in one render. Each costs
 * about a microsecond, so this bounds a render to well under a second, even
 * when nested `{{#each}}` blocks multiply list sizes or partials fan out
 * without producing text. The builtin sections use about four per skill.
 */
export const MAX_RENDER_CALLS = 200_000;

/**
 * Most helper calls, block bodies and partials of one prompt's renders
 * together: every section, kept, failed or left out, its fallbacks and its
 * `{{> base}}`. Each section under its own {@link MAX_RENDER_CALLS}, a
 * thousand sections of nested loops took a minute. The builtin sections of
 * a prompt with 5,000 skills make about 20,000.
 */
export const MAX_PROMPT_CALLS = 2 * MAX_RENDER_CALLS;

/**
 * Most text one prompt's renders may produce together, counted as for
 * {@link MAX_RENDER_OUTPUT}: a section that fails past its own cap has
 * still produced it. Above the 16 MiB of section text a prompt renders
 * before it leaves the rest out unrendered (`prompt-too-large`), so that
 * rule comes first for sections that render.
 */
export const MAX_PROMPT_OUTPUT = 3 * MAX_PROMPT_CHARS;

/**
 * Most text one render's blocks and partials may read again after it was
 * produced: a `{{#xml}}` block trims and scans its block's text, and a
 * trusted project's partial is finished (what it leaves open closed) from
 * its whole text, callees' included, at each level they nest. Output counts
 * a text once, so 891 `{{#xml}}` levels around 7 MB took 25.6 s of CPU for
 * some 900 counted calls, and 14 partials around 7 MB of list-marker lines
 * 6.7 s (issue 24, review rev45b F6). As much as the render's output: a
 * level's reading costs up to 175 ms a MiB (lines of `-`, read as Markdown
 * at each level), so four times the output, 32 MiB a render and 64 MiB a
 * prompt, let two sections take 10.9 s of CPU at a 3 s deadline (review
 * rev46c F4); 16 MiB a prompt is under 3 s at that cost.
 */
export const MAX_RENDER_REREAD = MAX_RENDER_OUTPUT;

/** The same for one prompt's renders together ({@link MAX_RENDER_REREAD}, two renders' worth). */
export const MAX_PROMPT_REREAD = 2 * MAX_RENDER_REREAD;

/**
 * Most units of a trusted project's texts the element-name reader may read
 * in one prompt's renders together, as `withNameWork` (src/_prompt-text.ts)
 * counts them: each unit of a name not all ASCII and half of each ASCII
 * name's, a quarter of each Hangul or CJK character and a 32nd of every
 * character each reading scans, an eighth of each character read for the
 * owner mark. A unit costs some 0.3 µs (a name's Unicode readings, folds
 * and joins; the scans' expressions), so this is about 1 s of CPU; a
 * project at every cap of prose (8 MiB, two readings) stays under it
 * (review rev82b F1: ASCII was not counted, and 1 MB of distinct ASCII
 * tag names read eight times held a render 35 s). Before, nothing counted it:
 * a partial of a megabyte of Hangul tag names printed twenty times, or 24
 * sections of it, held a render 5-14 s of CPU past a 1 s deadline (review
 * rev80b F1).
 */
export const MAX_PROMPT_NAME_READ = 2 * 1024 * 1024;

/**
 * Units of {@link MAX_PROMPT_NAME_READ} charged for each print of a trusted
 * project's partial whose text the render has not finished before (each
 * print with a new argument, `{{> p a=@key}}`), on top of its text's: a
 * finish has a fixed cost whatever its length (holding it, a CommonMark
 * render and an HTML parse to close it), some 0.3 ms, the cost of about this
 * many units. A project printing partials a few dozen times spends a few
 * percent of the meter; 8,000 prints of a one-line `<x_{{a}}> y`, each a new
 * text, held `render --deadline 1000` 6 s of CPU with every meter unspent
 * (review rev88b F1). Stopped now after ~2,000 such prints.
 */
export const PARTIAL_PRINT_NAME_UNITS = 1024;

/**
 * Most characters and list items one prompt's helper calls may be given
 * together (each text or list argument, hash values included, counted at
 * each call). A helper's work grows with what it is given (`when` compares
 * two texts, `includes` walks a list), so a call is not a microsecond when
 * its arguments are megabytes: 65,536 `when`s of a 900 KB APPEND_SYSTEM.md
 * against a 900 KB literal took 8 s in one section. Reading 256 Mi of them
 * takes a fraction of a second; the builtin sections read a few megabytes.
 */
export const MAX_PROMPT_INPUT = 256 * 1024 * 1024;

/**
 * What a partial called with key=value pairs (`{{> item this name="x"}}`)
 * counts toward {@link MAX_PROMPT_INPUT} for each key of its context:
 * Handlebars copies the context's every key into a new object at each such
 * call, 50 to 400 ns a key (a long list's indexes are made into texts),
 * where a helper reads a character in about one: at most a million keys
 * (~0.4 s) a prompt.
 * A text as the context is given as an empty object (Handlebars copied its
 * every character as a key: 256 calls with a 250 KB AGENTS.md took 37 s).
 */
export const PARTIAL_CONTEXT_KEY_COST = 256;

/**
 * Most inline partial frames (`{{#*inline}}` blocks running inside one
 * another, partial calls included) in scope at once. A partial's name is
 * looked up through every frame in scope, so this bounds a lookup; a layout
 * partial inside a loop uses two or three.
 */
export const MAX_INLINE_FRAMES = 64;

/**
 * Longest message of a TemplateError (and so of a template diagnostic), in
 * characters. Enough for Handlebars' longest parse error (its expected-token
 * list is about 300 characters) and a chain of partial names; anything longer
 * repeats user text. Longer messages keep their start and end around "…".
 */
export const MAX_MESSAGE_LENGTH = 600;

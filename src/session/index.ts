export {
  createPromptSession,
  type PromptSession,
  SESSION_FIXED_OPTIONS,
  type SessionFixedOption,
  type SessionOverrides,
  type SessionRender,
} from "./session.js";

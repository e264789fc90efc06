export {
  createPromptSession,
  type PromptSession,
  SESSION_FIXED_OPTIONS,
  type SessionFixedOption,
  type SessionOverrides,
  type SessionRender,
  type SessionSettings,
} from "./session.js";

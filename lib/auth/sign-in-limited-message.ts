// Shared by the server, which throws it from next-auth's authorize (next-auth hands the message to
// the browser as signIn's `error`), and the sign-in form, which tells it apart from a wrong password.
const PREFIX = "Too many sign-in attempts";

export function signInLimitedMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `${PREFIX}; try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}

export function isSignInLimitedMessage(text: string | null | undefined): boolean {
  return typeof text === "string" && text.startsWith(PREFIX);
}

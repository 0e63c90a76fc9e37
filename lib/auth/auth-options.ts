import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";

import { defaultCtx } from "@/lib/context";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { clientIpFromHeaders } from "@/lib/http/client-ip";
import { logger } from "@/lib/log/logger";
import { currentPasswordFingerprint } from "@/lib/users/password-fingerprint";
import { signInWithPassword } from "@/lib/users/sign-in-with-password";

import { safeCallbackUrl } from "./safe-callback-url";

/** Email + password against the users table; the session is a signed, encrypted JWT cookie. */
export const authOptions: NextAuthOptions = {
  secret: env().AUTH_SECRET,
  session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
  pages: { signIn: "/signin" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: async (credentials, req) => {
        if (!credentials?.email || !credentials.password) return null;
        try {
          const ip = clientIpFromHeaders(req?.headers ?? {});
          return await signInWithPassword(defaultCtx(), {
            email: credentials.email,
            password: credentials.password,
            ip,
          });
        } catch (error) {
          // next-auth sends a thrown message to the browser: only ours, never a database error's.
          if (error instanceof ApiError && error.code === "sign_in_rate_limited") throw new Error(error.message);
          logger().error({ err: error }, "sign-in failed");
          throw new Error("SignInUnavailable");
        }
      },
    }),
  ],
  callbacks: {
    // Server side of the callbackUrl rule: next-auth stores and follows it too (sign-in, sign-out).
    redirect: ({ url, baseUrl }) => `${baseUrl}${safeCallbackUrl(url, baseUrl)}`,
    // The session names the password it was signed in with: once another is set (a reset, the admin CLI), it ends.
    // Sessions from before this was recorded carry none and run their course.
    jwt: async ({ token, user }) => {
      if (user) {
        token.uid = user.id;
        token.pwf = await currentPasswordFingerprint(defaultCtx(), user.id);
        return token;
      }
      if (
        typeof token.uid === "string" &&
        typeof token.pwf === "string" &&
        token.pwf !== (await currentPasswordFingerprint(defaultCtx(), token.uid))
      )
        return {};
      return token;
    },
    session: ({ session, token }) => {
      if (session.user) (session.user as { id?: string }).id = token.uid as string;
      return session;
    },
  },
};

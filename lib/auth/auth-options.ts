import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { defaultCtx } from "@/lib/context";
import { verifyCredentials } from "@/lib/users/verify-credentials";

/** Email + password against the users table; the session is a signed, encrypted JWT cookie. */
export const authOptions: NextAuthOptions = {
  secret: process.env.AUTH_SECRET,
  session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
  pages: { signIn: "/signin" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: async (credentials) => {
        if (!credentials?.email || !credentials.password) return null;
        return verifyCredentials(defaultCtx(), credentials.email, credentials.password);
      },
    }),
  ],
  callbacks: {
    jwt: ({ token, user }) => {
      if (user) token.uid = user.id;
      return token;
    },
    session: ({ session, token }) => {
      if (session.user) (session.user as { id?: string }).id = token.uid as string;
      return session;
    },
  },
};

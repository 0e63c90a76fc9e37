import { ApiError } from "@/lib/errors";

/** For pages: a fetcher's not-found becomes null (the page answers 404); anything else still throws. */
export async function findOrNull<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

import Link from "next/link";

export default function NotFound() {
  return (
    <main className="centered card auth-page">
      <h1>Not found</h1>
      <p className="muted">There is nothing here.</p>
      <Link href="/">Back to the dashboard</Link>
    </main>
  );
}

/** What a hosted page shows for a forged, altered or unknown link. */
export function InvalidLink() {
  return (
    <>
      <h1>This link does not work</h1>
      <p>It may have been copied incompletely. Open it again from the email you received.</p>
    </>
  );
}

/** This process's RSS once a second for `seconds` seconds, while whatever it runs goes on (the executor's polls). */
export async function sampleRss(seconds: number): Promise<{ first: number; last: number; max: number }> {
  const samples: number[] = [];
  for (let s = 0; s < seconds; s++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    samples.push(process.memoryUsage.rss());
  }
  return { first: samples[0]!, last: samples[samples.length - 1]!, max: Math.max(...samples) };
}

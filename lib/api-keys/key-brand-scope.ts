/**
 * A key locked to a brand reaches that brand's topics, lists and forms only; an unlocked key reaches
 * every brand of its workspace. An actor carries its key's lock (or a member's view of one brand).
 */
export function keyReachesBrand(key: { brandId: string | null }, brandId: string): boolean {
  return key.brandId === null || key.brandId === brandId;
}

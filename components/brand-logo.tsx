import { cn } from "@/components/ui/cn";

/**
 * A brand's logo, from the address the sender gave (an https image on their own host). Plain <img>:
 * next/image would need every such host allowed, or would make the service an image proxy for any
 * address a workspace types.
 */
export function BrandLogo({ src, alt, className }: { src: string; alt: string; className?: string }) {
  // eslint-disable-next-line @next/next/no-img-element
  return <img src={src} alt={alt} className={cn("block h-10 w-auto max-w-40 object-contain", className)} />;
}

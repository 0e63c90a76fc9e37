interface Brand {
  name: string;
  legalName: string;
  postalAddress: string;
  websiteUrl: string;
}

/** Who is behind the mail: shown on every hosted page. */
export function BrandFooter({ brand }: { brand: Brand }) {
  return (
    <footer className="brand-footer">
      <p>
        <strong>{brand.name}</strong> · {brand.legalName}
        <br />
        {brand.postalAddress}
        <br />
        <a href={brand.websiteUrl}>{brand.websiteUrl}</a>
      </p>
    </footer>
  );
}

"use client";

import { Braces } from "lucide-react";
import { useRef } from "react";

import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

// Exactly the namespaces the merge-tag rule accepts (lib/campaigns/merge-tags.ts), plus the workspace's attributes.
const CONTACT_TAGS = ["email", "first_name", "last_name"];
const BRAND_TAGS = ["name", "legal_name", "postal_address", "website_url"];

/**
 * Inserts `{{namespace.name}}` where the cursor is, from the tags that exist.
 * Once a tag is picked, `returnFocus` puts the cursor back in the field, just
 * after the tag, so typing carries on there (not on this button, where Enter
 * would open the menu again); closed without a pick, focus goes back to the button.
 * Focus returns in the pick itself, not when the menu has closed (a task later):
 * keys typed in between would otherwise be lost. So the menu traps no focus.
 */
export function MergeTagPicker({
  attributes,
  onPick,
  returnFocus,
  label = "Insert merge tag",
}: {
  attributes: string[];
  onPick: (tag: string) => void;
  returnFocus?: () => void;
  label?: string;
}) {
  const picked = useRef(false);
  const pick = (tag: string) => {
    picked.current = true;
    onPick(tag);
    returnFocus?.();
  };
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button type="button" variant="outline" size="sm">
          <Braces />
          {label}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        className="max-h-80 overflow-y-auto"
        onCloseAutoFocus={(event) => {
          if (!picked.current) return;
          picked.current = false;
          if (returnFocus) event.preventDefault();
        }}
      >
        <DropdownMenuLabel>Contact</DropdownMenuLabel>
        {[...CONTACT_TAGS, ...attributes].map((name) => (
          <DropdownMenuItem key={`contact.${name}`} onSelect={() => pick(`{{contact.${name}}}`)}>
            <code>contact.{name}</code>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuLabel>Brand</DropdownMenuLabel>
        {BRAND_TAGS.map((name) => (
          <DropdownMenuItem key={`brand.${name}`} onSelect={() => pick(`{{brand.${name}}}`)}>
            <code>brand.{name}</code>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

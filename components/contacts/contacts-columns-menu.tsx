"use client";

import { Columns3 } from "lucide-react";
import Link from "next/link";

import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

import type { AttributeColumn } from "./contacts-table-columns";

const TYPE_WORDS: Record<AttributeColumn["type"], string> = {
  string: "text",
  number: "number",
  boolean: "yes/no",
  date: "date",
};

/**
 * Which custom attributes the table shows as extra columns. The choice is the URL's `columns`, so
 * it survives a reload and travels with a shared link; a column is added at the end, in the order chosen.
 */
export function ContactsColumnsMenu({
  workspaceId,
  attributes,
  shown,
  onChange,
}: {
  workspaceId: string;
  attributes: AttributeColumn[];
  shown: string[];
  onChange: (columns: string[]) => void;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm">
          <Columns3 />
          Columns{shown.length > 0 && ` (${shown.length})`}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="max-h-80 w-60 overflow-y-auto">
        <DropdownMenuLabel>Show attributes as columns</DropdownMenuLabel>
        {attributes.length === 0 ? (
          <DropdownMenuItem asChild>
            <Link href={`/w/${workspaceId}/attributes`}>No custom attributes yet: define one</Link>
          </DropdownMenuItem>
        ) : (
          attributes.map(({ key, type }) => (
            <DropdownMenuCheckboxItem
              key={key}
              checked={shown.includes(key)}
              onCheckedChange={(checked) => onChange(checked ? [...shown, key] : shown.filter((k) => k !== key))}
              onSelect={(event) => event.preventDefault()}
            >
              <span className="min-w-0 flex-1 truncate">{key}</span>
              <span className="text-xs text-muted-foreground">{TYPE_WORDS[type]}</span>
            </DropdownMenuCheckboxItem>
          ))
        )}
        {shown.length > 0 && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={() => onChange([])}>Hide all attribute columns</DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

"use client";

import { NodeSelection, Selection, TextSelection } from "@tiptap/pm/state";
import type { EditorView } from "@tiptap/pm/view";
import { EditorContent, useEditor, useEditorState, type Editor, type JSONContent } from "@tiptap/react";
import {
  Bold,
  Columns2,
  Heading1,
  Heading2,
  Image as ImageIcon,
  Italic,
  Link as LinkIcon,
  List,
  Minus,
  MousePointerClick,
  MoveVertical,
  PanelBottom,
  Pilcrow,
  Stamp,
} from "lucide-react";
import { useState, type ReactNode } from "react";

import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { emailExtensions } from "@/lib/email-blocks/email-extensions";

import { MergeTagPicker } from "./merge-tag-picker";
import { uploadImage } from "./upload-image";

type Prompt = { kind: "link" | "image" | "button" } | null;

/**
 * The campaign body as blocks: headings, text with links and emphasis,
 * images, buttons, dividers, spacers, two columns, the brand's logo and
 * footer, and merge tags. Holds the editor's document; the server renders
 * the mail from it.
 */
export function BlockEditor({
  workspaceId,
  initial,
  attributes,
  onChange,
  invalid,
  describedBy,
}: {
  workspaceId: string;
  initial: JSONContent;
  attributes: string[];
  onChange: (document: JSONContent) => void;
  invalid?: boolean;
  describedBy?: string;
}) {
  const editor = useEditor({
    extensions: emailExtensions,
    content: initial,
    // Rendered in the browser only: the server's HTML would not match the editor's.
    immediatelyRender: false,
    onCreate: ({ editor: created }) => startInText(created),
    editorProps: {
      handleTextInput: (view, _from, _to, text) => typeAfterSelectedBlock(view, text),
      attributes: {
        class: "email-document min-h-80 p-4 focus:outline-none",
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": "Body",
        ...(invalid ? { "aria-invalid": "true" } : {}),
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
      },
    },
    // Plain JSON: the editor's attribute objects are not plain objects, and a server action would receive them as opaque references.
    onUpdate: ({ editor: current }) => onChange(JSON.parse(JSON.stringify(current.getJSON())) as JSONContent),
  });
  const [prompt, setPrompt] = useState<Prompt>(null);
  if (!editor) return <div className="min-h-96 rounded-md border bg-muted/30" aria-busy="true" />;
  return (
    <div className="rounded-md border" data-invalid={invalid ? true : undefined}>
      <Toolbar editor={editor} attributes={attributes} onPrompt={setPrompt} />
      <EditorContent editor={editor} />
      <InsertDialog workspaceId={workspaceId} editor={editor} prompt={prompt} onClose={() => setPrompt(null)} />
    </div>
  );
}

function Toolbar({
  editor,
  attributes,
  onPrompt,
}: {
  editor: Editor;
  attributes: string[];
  onPrompt: (prompt: Prompt) => void;
}) {
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive("bold"),
      italic: current.isActive("italic"),
      h1: current.isActive("heading", { level: 1 }),
      h2: current.isActive("heading", { level: 2 }),
      list: current.isActive("bulletList"),
      link: current.isActive("link"),
    }),
  });
  const chain = () => editor.chain().focus();
  return (
    <div role="toolbar" aria-label="Blocks" className="flex flex-wrap items-center gap-1 border-b bg-muted/40 p-1.5">
      <Tool label="Heading" active={state.h1} onClick={() => chain().toggleHeading({ level: 1 }).run()}>
        <Heading1 />
      </Tool>
      <Tool label="Subheading" active={state.h2} onClick={() => chain().toggleHeading({ level: 2 }).run()}>
        <Heading2 />
      </Tool>
      <Tool label="Paragraph" onClick={() => chain().setParagraph().run()}>
        <Pilcrow />
      </Tool>
      <Tool label="Bold" active={state.bold} onClick={() => chain().toggleBold().run()}>
        <Bold />
      </Tool>
      <Tool label="Italic" active={state.italic} onClick={() => chain().toggleItalic().run()}>
        <Italic />
      </Tool>
      <Tool label="Link" active={state.link} onClick={() => onPrompt({ kind: "link" })}>
        <LinkIcon />
      </Tool>
      <Tool label="Bulleted list" active={state.list} onClick={() => chain().toggleBulletList().run()}>
        <List />
      </Tool>
      <span className="mx-1 h-5 w-px bg-border" aria-hidden />
      <Tool label="Image" onClick={() => onPrompt({ kind: "image" })}>
        <ImageIcon />
      </Tool>
      <Tool label="Button" onClick={() => onPrompt({ kind: "button" })}>
        <MousePointerClick />
      </Tool>
      <Tool label="Divider" onClick={() => insertBlock(editor, { type: "horizontalRule" })}>
        <Minus />
      </Tool>
      <Tool label="Spacer" onClick={() => insertBlock(editor, { type: "spacer", attrs: { height: 24 } })}>
        <MoveVertical />
      </Tool>
      <Tool
        label="Two columns"
        onClick={() =>
          insertBlock(editor, {
            type: "columns",
            content: [
              { type: "column", content: [{ type: "paragraph", content: [{ type: "text", text: "Left column" }] }] },
              { type: "column", content: [{ type: "paragraph", content: [{ type: "text", text: "Right column" }] }] },
            ],
          })
        }
      >
        <Columns2 />
      </Tool>
      <Tool label="Brand logo" onClick={() => insertBlock(editor, { type: "brandLogo" })}>
        <Stamp />
      </Tool>
      <Tool label="Brand footer" onClick={() => insertBlock(editor, { type: "brandFooter" })}>
        <PanelBottom />
      </Tool>
      <span className="ml-auto">
        <MergeTagPicker
          attributes={attributes}
          label="Merge tag in body"
          onPick={(tag) => insertMergeTag(editor, tag)}
          returnFocus={() => editor.view.focus()}
        />
      </span>
    </div>
  );
}

/**
 * The cursor starts in the first text, not on the first block: a document
 * starting with the brand's logo would otherwise open with the logo selected,
 * and a first click would leave it selected, so that typing replaced it.
 */
function startInText(editor: Editor) {
  const start = Selection.findFrom(editor.state.doc.resolve(0), 1, true);
  if (start) editor.view.dispatch(editor.state.tr.setSelection(start).setMeta("addToHistory", false));
}

/** Typing while a block (the logo, a button, an image) is selected writes a new paragraph after it; Delete removes a block. */
function typeAfterSelectedBlock(view: EditorView, text: string): boolean {
  const { selection, schema } = view.state;
  if (!(selection instanceof NodeSelection) || !selection.node.isBlock) return false;
  const tr = view.state.tr.insert(selection.to, schema.nodes.paragraph!.create(null, schema.text(text)));
  view.dispatch(tr.setSelection(TextSelection.create(tr.doc, selection.to + 1 + text.length)).scrollIntoView());
  return true;
}

/** A merge tag goes where the cursor is; with a block selected, in a new paragraph after it. The cursor ends after the tag. */
function insertMergeTag(editor: Editor, tag: string) {
  const mergeTag = { type: "mergeTag", attrs: { id: tag.slice(2, -2) } };
  const { selection } = editor.state;
  if (selection instanceof NodeSelection && selection.node.isBlock)
    editor
      .chain()
      .insertContentAt(selection.to, { type: "paragraph", content: [mergeTag] })
      .run();
  else editor.chain().insertContent(mergeTag).run();
}

/**
 * A block goes where the cursor is; when a block is selected (one just
 * inserted), after it rather than in its place.
 */
function insertBlock(editor: Editor, content: JSONContent) {
  const { selection } = editor.state;
  const chain = editor.chain().focus();
  (selection instanceof NodeSelection
    ? chain.insertContentAt(selection.to, content)
    : chain.insertContent(content)
  ).run();
}

function Tool({
  label,
  active,
  onClick,
  children,
}: {
  label: string;
  active?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      type="button"
      variant={active ? "secondary" : "ghost"}
      size="icon"
      className="size-8"
      aria-label={label}
      title={label}
      aria-pressed={active}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

const PROMPTS = {
  link: {
    title: "Link",
    description: "The selected text links to this address.",
    fields: [["href", "Address", "https://"]],
  },
  image: {
    title: "Image",
    description: "An image by its address (https), with a text for readers who cannot see it.",
    fields: [
      ["src", "Image address", "https://"],
      ["alt", "Alternative text", ""],
    ],
  },
  button: {
    title: "Button",
    description: "A button that opens an address.",
    fields: [
      ["text", "Button text", "Read more"],
      ["href", "Address", "https://"],
    ],
  },
} as const;

/** The few values an inserted block needs, asked for in a dialog. */
function InsertDialog({
  workspaceId,
  editor,
  prompt,
  onClose,
}: {
  workspaceId: string;
  editor: Editor;
  prompt: Prompt;
  onClose: () => void;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [uploading, setUploading] = useState(false);
  if (!prompt) return null;
  const spec = PROMPTS[prompt.kind];
  const value = (name: string, fallback: string) =>
    values[name] ??
    (name === "href" && prompt.kind === "link" ? String(editor.getAttributes("link").href ?? fallback) : fallback);
  const close = () => {
    setValues({});
    setError(undefined);
    onClose();
  };
  const upload = async (file: File | undefined) => {
    if (!file) return;
    setError(undefined);
    setUploading(true);
    try {
      const { url } = await uploadImage(workspaceId, file);
      setValues((current) => ({ ...current, src: url, alt: current.alt ?? file.name.replace(/\.[^.]+$/, "") }));
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setUploading(false);
    }
  };
  const insert = () => {
    const href = value("href", "").trim();
    const src = value("src", "").trim();
    if (
      (prompt.kind !== "image" && !/^(https?:\/\/\S+|mailto:\S+)$/.test(href)) ||
      (prompt.kind === "image" && !/^https?:\/\/\S+$/.test(src))
    ) {
      return setError("Give a whole address, starting with https://");
    }
    if (prompt.kind === "link") editor.chain().focus().extendMarkRange("link").setLink({ href }).run();
    if (prompt.kind === "image") insertBlock(editor, { type: "image", attrs: { src, alt: value("alt", "").trim() } });
    if (prompt.kind === "button")
      insertBlock(editor, { type: "button", attrs: { text: value("text", "Read more").trim() || "Read more", href } });
    close();
  };
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : close())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{spec.title}</DialogTitle>
          <DialogDescription>{spec.description}</DialogDescription>
        </DialogHeader>
        <div className="grid gap-3">
          {spec.fields.map(([name, label, fallback]) => (
            <div key={name} className="grid gap-1.5">
              <Label htmlFor={`block-${name}`}>{label}</Label>
              <Input
                id={`block-${name}`}
                value={value(name, fallback)}
                onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
              />
            </div>
          ))}
          {prompt.kind === "image" && (
            <div className="grid gap-1.5">
              <Label htmlFor="block-upload">Or upload a PNG, JPEG, GIF or WebP (up to 5 MiB)</Label>
              <Input
                id="block-upload"
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp"
                disabled={uploading}
                onChange={(event) => void upload(event.target.files?.[0])}
              />
            </div>
          )}
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
        </div>
        <DialogFooter>
          <Button type="button" onClick={insert} disabled={uploading}>
            {prompt.kind === "link" ? "Set link" : `Insert ${spec.title.toLowerCase()}`}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

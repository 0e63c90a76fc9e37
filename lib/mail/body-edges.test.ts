import { describe, expect, it } from "vitest";

import { appendToBody, prependToBody } from "./body-edges";

describe("the footer and the open pixel of a mail", () => {
  it("go inside a whole document's body, before </body>, and at the end of a fragment", () => {
    expect(appendToBody("<html><body><p>Hi</p></body></html>", "<hr>")).toBe("<html><body><p>Hi</p><hr></body></html>");
    expect(appendToBody("<HTML><BODY><p>Hi</p></BODY></HTML>", "<hr>")).toBe("<HTML><BODY><p>Hi</p><hr></BODY></HTML>");
    expect(appendToBody("<p>Hi</p>", "<hr>")).toBe("<p>Hi</p><hr>");
  });

  it("the preheader goes first in the body: after <body …> in a whole document, first in a fragment", () => {
    expect(prependToBody('<html><body style="margin:0"><p>Hi</p></body></html>', "<div>pre</div>")).toBe(
      '<html><body style="margin:0"><div>pre</div><p>Hi</p></body></html>',
    );
    expect(prependToBody("<p>Hi</p>", "<div>pre</div>")).toBe("<div>pre</div><p>Hi</p>");
  });
});

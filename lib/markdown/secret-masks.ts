import type { Element, ElementContent, Root, RootContent } from "hast";
import { hasMask, splitMasks } from "@/lib/domain/secrets/masks";

/** The property a mask's span carries (as the attribute data-secret-mask): the mask's text. */
const MASK_PROPERTY = "dataSecretMask";

/**
 * rehype plugin, after sanitising and before highlighting: each mask in the text (`[GitHub token
 * …a41f]`) becomes a `span` with MASK_PROPERTY, which the Markdown renderer turns into a reveal
 * control (not inside a link). A code block holding a mask is left unhighlighted: highlighting
 * would cut the mask into tokens (and the spans into text).
 */
export function rehypeSecretMasks() {
  return (tree: Root) => {
    walk(tree, false);
  };
}

/** `inLink`: inside a link a mask stays text (a button inside a link would follow it too). */
function walk(node: Root | Element, inLink: boolean): void {
  const children: (RootContent | ElementContent)[] = [];
  let changed = false;
  for (const child of node.children) {
    if (child.type === "text" && !inLink && hasMask(child.value)) {
      changed = true;
      for (const piece of splitMasks(child.value)) {
        children.push(
          "mask" in piece
            ? {
                type: "element",
                tagName: "span",
                properties: { [MASK_PROPERTY]: piece.mask },
                children: [{ type: "text", value: piece.mask }],
              }
            : { type: "text", value: piece.text },
        );
      }
      continue;
    }
    if (child.type === "element") {
      if (child.tagName === "code" && hasMask(textOf(child)))
        child.properties = { ...child.properties, className: classesWithoutLanguage(child.properties?.className) };
      walk(child, inLink || child.tagName === "a");
    }
    children.push(child);
  }
  if (changed) node.children = children as typeof node.children;
}

function textOf(node: Element): string {
  return node.children.map((c) => (c.type === "text" ? c.value : c.type === "element" ? textOf(c) : "")).join("");
}

function classesWithoutLanguage(value: unknown): string[] {
  const classes = Array.isArray(value) ? value.map(String) : typeof value === "string" ? value.split(/\s+/) : [];
  return classes.filter((c) => !c.startsWith("language-") && !c.startsWith("lang-"));
}

type Node = { type: string; value?: string; children?: Node[] };

const FLOW_PARENTS = new Set(["root", "blockquote", "listItem", "footnoteDefinition"]);

/**
 * remark plugin: raw HTML in conversation content becomes literal text (a paragraph where it stood
 * as a block). Content is untrusted; showing `<script>` as written is safe and faithful, where the
 * default would drop it silently.
 */
export function remarkHtmlAsText() {
  return (tree: Node) => {
    const walk = (node: Node) => {
      node.children = node.children?.map((child) => {
        if (child.type !== "html") return child;
        const text = { type: "text", value: child.value ?? "" };
        return FLOW_PARENTS.has(node.type) ? { type: "paragraph", children: [text] } : text;
      });
      node.children?.forEach(walk);
    };
    walk(tree);
  };
}

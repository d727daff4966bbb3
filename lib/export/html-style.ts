/**
 * The HTML export's one stylesheet, inline: system fonts, light and dark (prefers-color-scheme),
 * highlight.js token colours, and a print layout in which every fold prints open (a closed
 * <details> hides its content through ::details-content, which print styles make visible: no
 * script needed).
 */
export const EXPORT_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f4f4f5; --card: #ffffff; --text: #18181b; --muted: #52525b; --border: #e4e4e7; --subtle: #fafafa;
  --link: #4338ca; --code-bg: #f4f4f5; --pre-bg: #18181b; --pre-text: #f4f4f5;
  --user: #e0f2fe; --user-text: #075985; --assistant: #d1fae5; --assistant-text: #065f46;
  --system: #f4f4f5; --system-text: #3f3f46; --tool: #fef3c7; --tool-text: #92400e;
  --added: #166534; --added-bg: #dcfce7; --removed: #991b1b; --removed-bg: #fee2e2; --hunk: #6d28d9; --file: #52525b;
  --error: #991b1b; --error-bg: #fee2e2; --error-border: #fca5a5; --compaction: #ede9fe; --compaction-text: #4c1d95;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #09090b; --card: #18181b; --text: #f4f4f5; --muted: #a1a1aa; --border: #3f3f46; --subtle: #1f1f23;
    --link: #a5b4fc; --code-bg: #27272a; --pre-bg: #0c0c0e; --pre-text: #e4e4e7;
    --user: #0c4a6e; --user-text: #e0f2fe; --assistant: #064e3b; --assistant-text: #d1fae5;
    --system: #27272a; --system-text: #e4e4e7; --tool: #78350f; --tool-text: #fef3c7;
    --added: #86efac; --added-bg: #052e16; --removed: #fca5a5; --removed-bg: #450a0a; --hunk: #c4b5fd; --file: #a1a1aa;
    --error: #fca5a5; --error-bg: #450a0a; --error-border: #7f1d1d; --compaction: #2e1065; --compaction-text: #ede9fe;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 960px; margin: 0 auto; padding: 24px 16px 64px; }
a { color: var(--link); }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
h1 { font-size: 24px; line-height: 1.3; margin: 0 0 12px; overflow-wrap: anywhere; }
h2.thread-title { font-size: 20px; margin: 32px 0 8px; overflow-wrap: anywhere; }
.doc-header, .thread-header { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 16px; margin-bottom: 16px; }
.shared { margin: 0 0 8px; color: var(--muted); font-size: 13px; }
.facts { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 2px 12px; margin: 0; font-size: 14px; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.note { color: var(--muted); font-size: 12px; font-style: normal; }
.small { font-size: 13px; margin: 0 0 4px; overflow-wrap: anywhere; }
.label { margin: 8px 0 4px; font-size: 12px; font-weight: 600; letter-spacing: 0.04em; text-transform: uppercase; color: var(--muted); }
nav.toc { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 8px 16px; margin-bottom: 16px; font-size: 14px; }
nav.toc ol { margin: 4px 0; padding-left: 0; list-style: none; }
nav.toc li { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
nav.toc .toc-thread { font-weight: 600; margin-top: 8px; white-space: normal; }
.turn { background: var(--card); border: 1px solid var(--border); border-radius: 8px; margin: 12px 0; }
.turn > header { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; padding: 8px 16px; border-bottom: 1px solid var(--border); font-size: 14px; }
.turn > header time { margin-left: auto; color: var(--muted); font-size: 12px; }
.turn-number { font-family: ui-monospace, monospace; font-size: 12px; color: var(--muted); text-decoration: none; }
.role { border-radius: 4px; padding: 0 6px; font-size: 12px; font-weight: 600; }
.role-user .role { background: var(--user); color: var(--user-text); }
.role-assistant .role { background: var(--assistant); color: var(--assistant-text); }
.role-system .role { background: var(--system); color: var(--system-text); }
.role-tool .role { background: var(--tool); color: var(--tool-text); }
.attribution { font-weight: 500; overflow-wrap: anywhere; }
.turn-body { padding: 12px 16px; min-width: 0; }
.turn-body > * + * { margin-top: 12px; }
.refs { display: flex; flex-wrap: wrap; gap: 6px; padding: 8px 16px; border-bottom: 1px solid var(--border); font-size: 12px; }
.chip, .image-label { background: var(--code-bg); border-radius: 4px; padding: 1px 6px; font-family: ui-monospace, monospace; font-size: 12px; overflow-wrap: anywhere; }
.compaction { background: var(--compaction); color: var(--compaction-text); text-align: center; font-weight: 600; font-size: 14px; padding: 6px 16px; border-bottom: 1px solid var(--border); }
.usage { border-top: 1px solid var(--border); padding: 6px 16px; font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
details { border: 1px solid var(--border); border-radius: 6px; background: var(--subtle); font-size: 14px; }
summary { cursor: pointer; padding: 6px 12px; overflow-wrap: anywhere; }
.fold-body { border-top: 1px solid var(--border); padding: 8px 12px; min-width: 0; }
details.failed, .tool.failed { border-color: var(--error-border); }
.error-label { background: var(--error-bg); color: var(--error); border: 1px solid var(--error-border); border-radius: 4px; padding: 0 4px; font-size: 11px; font-weight: 600; }
.tool { border: 1px solid var(--border); border-radius: 6px; background: var(--subtle); padding: 8px 12px; font-size: 14px; }
.tool > * + * { margin-top: 8px; }
.tool-head { margin: 0; overflow-wrap: anywhere; }
.tool-head .kind { color: var(--muted); font-size: 12px; }
.tool-head .tool-name { font-weight: 600; }
.tool-head .hint { color: var(--muted); font-family: ui-monospace, monospace; font-size: 12px; }
.subagent { background: var(--card); }
.subagent > summary { font-weight: 600; }
pre.plain { margin: 0; background: var(--card); border: 1px solid var(--border); border-radius: 4px; padding: 8px; white-space: pre-wrap; overflow-wrap: anywhere; line-height: 1.45; font-size: 12px; }
pre.failed { color: var(--error); background: var(--error-bg); }
pre.stderr { color: var(--error); background: var(--error-bg); }
.diff-added { color: var(--added); background: var(--added-bg); display: inline-block; min-width: 100%; }
.diff-removed { color: var(--removed); background: var(--removed-bg); display: inline-block; min-width: 100%; }
.diff-hunk { color: var(--hunk); }
.diff-file { color: var(--file); font-weight: 600; }
.command { font-size: 14px; }
.command .name { background: var(--compaction); color: var(--compaction-text); border-radius: 4px; padding: 1px 6px; font-family: ui-monospace, monospace; font-size: 12px; }
dl.fields dt { color: var(--muted); }
dl.fields dd { margin: 0 0 6px; }
ul.plan { margin: 0; padding-left: 0; list-style: none; font-size: 13px; }
ul.plan .status { display: inline-block; width: 6rem; color: var(--muted); }
ul.plan li.done { text-decoration: line-through; color: var(--muted); }
.markdown { overflow-wrap: anywhere; }
.markdown > * + * { margin-top: 12px; }
.markdown > :first-child { margin-top: 0; }
.markdown p, .markdown ul, .markdown ol, .markdown pre, .markdown blockquote, .markdown table { margin-bottom: 0; }
.markdown blockquote { border-left: 4px solid var(--border); margin-left: 0; padding-left: 12px; color: var(--muted); }
.markdown code { background: var(--code-bg); border-radius: 4px; padding: 1px 4px; }
.markdown pre { background: var(--pre-bg); color: var(--pre-text); border-radius: 6px; padding: 12px; overflow-x: auto; line-height: 1.45; }
.markdown pre code { background: transparent; padding: 0; color: inherit; }
.markdown table { display: block; overflow-x: auto; border-collapse: collapse; font-size: 14px; }
.markdown th, .markdown td { border: 1px solid var(--border); padding: 4px 8px; text-align: left; }
.hljs-keyword, .hljs-selector-tag, .hljs-built_in { color: #c4b5fd; }
.hljs-string, .hljs-attr, .hljs-template-string { color: #86efac; }
.hljs-number, .hljs-literal { color: #fdba74; }
.hljs-comment { color: #a1a1aa; font-style: italic; }
.hljs-title, .hljs-function { color: #93c5fd; }
.hljs-addition { color: #86efac; }
.hljs-deletion { color: #fca5a5; }
.hljs-meta, .hljs-type { color: #f9a8d4; }
@media (max-width: 600px) {
  main { padding: 12px 8px 48px; }
  .turn-body, .fold-body, .tool { padding-left: 8px; padding-right: 8px; }
}
@media print {
  :root { --bg: #ffffff; --card: #ffffff; }
  body { background: #ffffff; font-size: 12px; }
  main { max-width: none; padding: 0; }
  nav.toc { display: none; }
  details::details-content { content-visibility: visible; display: block; }
  .turn, .tool, details { break-inside: auto; }
  .turn > header { break-after: avoid; }
  .markdown pre { white-space: pre-wrap; }
}
`
  .trim()
  .replace(/\n\s*/g, "\n");

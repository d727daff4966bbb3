/**
 * The documentation's links hold: every relative Markdown link in README.md and docs/*.md names a
 * file that exists and, with `#anchor`, a heading of that file (GitHub's slugs); every code
 * comment or string that cites "docs/formats.md §N" (or "section N") names a numbered section of
 * docs/formats.md; and the README stays a five-minute read.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const README_MAX_LINES = 400;
/** Where code may cite the docs. */
const CODE_FOLDERS = ["lib", "app", "components", "scripts"];
const CODE_FILE = /\.(ts|tsx|mjs|cjs|js)$/;
/** Generated code, and this file, whose examples of broken citations are meant to be broken. */
const NOT_SCANNED = [/^lib\/db\/generated/, /^scripts\/docs-links\.test\.ts$/];

type DocFile = { path: string; text: string };
/** The repository as the checks see it, so the unit tests can hand them one made up. */
type Repo = { exists(repoPath: string): boolean; read(repoPath: string): string };
type Problem = { file: string; line: number; link: string; reason: string };

function describeProblem(problem: Problem): string {
  return `${problem.file}:${problem.line}: ${problem.link}: ${problem.reason}`;
}

const blank = (text: string) => text.replace(/[^\n]/g, " ");

/** The text with its fenced code blocks blanked (offsets kept): what they hold is no heading. */
function withoutFences(markdown: string): string {
  let fence: string | null = null;
  const lines = markdown.split("\n").map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) {
      fence = marker;
      return blank(line);
    }
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      return blank(line);
    }
    return line;
  });
  return lines.join("\n");
}

/** The text with code blocks and inline code spans blanked, offsets kept: what they hold is no link. */
function withoutCode(markdown: string): string {
  // A code span ends within its paragraph: an unpaired backtick never blanks what follows a blank line.
  return withoutFences(markdown).replace(/(`+)[^`](?:(?!\n\s*\n)[\s\S])*?\1(?!`)/g, blank);
}

/** GitHub's anchor for a heading: lowercase, Markdown marks and punctuation dropped, each space a hyphen. */
function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a Markdown file's headings give, a repeated one numbered as GitHub does (`-1`, `-2`). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split("\n")) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!heading) continue;
    const slug = githubSlug(heading[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function decoded(uriPart: string): string | null {
  try {
    return decodeURIComponent(uriPart);
  } catch {
    return null;
  }
}

const LINK = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;

/** The relative links of Markdown files that lead nowhere: a missing file, or an anchor no heading gives. */
function brokenLinks(docs: readonly DocFile[], repo: Repo): Problem[] {
  const problems: Problem[] = [];
  for (const doc of docs) {
    const text = withoutCode(doc.text);
    for (const match of text.matchAll(LINK)) {
      const link = match[1]!;
      if (EXTERNAL.test(link)) continue;
      // Shown as written: the blanked text has the same offsets.
      const written = doc.text.slice(match.index, match.index + match[0].length).replace(/\s+/g, " ");
      const at = { file: doc.path, line: lineAt(text, match.index), link: written };
      const hash = link.indexOf("#");
      const filePart = decoded(hash === -1 ? link : link.slice(0, hash));
      const anchor = hash === -1 ? null : decoded(link.slice(hash + 1));
      if (filePart === null || (anchor === null && hash !== -1)) {
        problems.push({ ...at, reason: "not a valid URL (a stray %)" });
        continue;
      }
      // A leading slash is the repository's root, as GitHub reads it.
      const target =
        filePart === ""
          ? doc.path
          : filePart.startsWith("/")
            ? path.posix.normalize(filePart.slice(1))
            : path.posix.normalize(path.posix.join(path.posix.dirname(doc.path), filePart));
      if (target.startsWith("../") || !repo.exists(target)) {
        problems.push({ ...at, reason: `${target} does not exist` });
      } else if (anchor !== null && target.endsWith(".md") && !anchorsOf(target === doc.path ? doc.text : repo.read(target)).has(anchor)) {
        problems.push({ ...at, reason: `no heading in ${target} gives the anchor #${anchor}` });
      }
    }
  }
  return problems;
}

/** docs/formats.md's numbered sections (`## 4. OpenCode`): number to title. */
function formatSections(markdown: string): Map<number, string> {
  const sections = new Map<number, string>();
  for (const line of withoutFences(markdown).split("\n")) {
    const section = /^## (\d+)\. (.+?)\s*$/.exec(line);
    if (section) sections.set(Number(section[1]), section[2]!);
  }
  return sections;
}

/** `docs/formats.md §4` or `docs/formats.md section 4`, with the section's title after it (`, "OpenCode"`) when given. */
const CITATION = /docs\/formats\.md,?\s*(?:§\s*|section\s+)(\d+)(?:,\s*"([^"]+)")?/gi;

/** Code that cites docs/formats.md by a section it does not have, or the agents' formats by a file that is not here. */
function brokenCitations(files: readonly DocFile[], sections: ReadonlyMap<number, string>): Problem[] {
  const problems: Problem[] = [];
  for (const file of files) {
    for (const match of file.text.matchAll(CITATION)) {
      const at = { file: file.path, line: lineAt(file.text, match.index), link: match[0].replace(/\s+/g, " ") };
      const title = sections.get(Number(match[1]));
      const named = match[2];
      if (title === undefined) problems.push({ ...at, reason: `docs/formats.md has no section ${match[1]}` });
      else if (named !== undefined && named !== title)
        problems.push({ ...at, reason: `docs/formats.md section ${match[1]} is "${title}", not "${named}"` });
    }
    for (const match of file.text.matchAll(/\bFORMATS\.md\b/g)) {
      problems.push({
        file: file.path,
        line: lineAt(file.text, match.index),
        link: match[0],
        reason: "FORMATS.md is not in this repository: cite docs/formats.md and its section",
      });
    }
  }
  return problems;
}

/** A path into the code a page names in backticks or prose (`lib/db/engine/client.ts`, lib/queries/): it must exist. */
const CODE_PATH = /(?<![\w./@-])((?:lib|app|components|scripts|e2e|prisma|fixtures)\/[\w./[\]-]*[\w\]/])/g;

/** Paths to code that README.md and docs/*.md name and the repository does not have (the folder map drifting). */
function staleCodePaths(docs: readonly DocFile[], repo: Repo): Problem[] {
  const problems: Problem[] = [];
  for (const doc of docs) {
    for (const match of doc.text.matchAll(CODE_PATH)) {
      const named = match[1]!.replace(/\/$/, "");
      const rest = doc.text.slice((match.index ?? 0) + match[0].length, (match.index ?? 0) + match[0].length + 40);
      // A glob (`lib/queries/live-*.ts`) names files by a pattern, not a path: not checked.
      if (/^[\w.-]*\*/.test(rest) || repo.exists(named)) continue;
      problems.push({ file: doc.path, line: lineAt(doc.text, match.index ?? 0), link: named, reason: "names code that does not exist" });
    }
  }
  return problems;
}

const diskRepo: Repo = {
  exists: (repoPath) => existsSync(path.join(root, repoPath)),
  read: (repoPath) => readFileSync(path.join(root, repoPath), "utf8"),
};

function markdownDocs(): DocFile[] {
  const docs = readdirSync(path.join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs].map((file) => ({ path: file, text: diskRepo.read(file) }));
}

function codeFiles(): DocFile[] {
  return CODE_FOLDERS.flatMap((folder) =>
    readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
      .map((name) => `${folder}/${name.split(path.sep).join("/")}`)
      .filter((file) => CODE_FILE.test(file) && !NOT_SCANNED.some((pattern) => pattern.test(file)))
      .map((file) => ({ path: file, text: diskRepo.read(file) })),
  );
}

function memoryRepo(files: Record<string, string>): Repo {
  return {
    exists: (repoPath) => repoPath in files || Object.keys(files).some((file) => file.startsWith(`${repoPath}/`)),
    read: (repoPath) => files[repoPath] ?? "",
  };
}

describe("githubSlug", () => {
  it("lowercases, drops punctuation and Markdown marks, and turns spaces into hyphens", () => {
    expect(githubSlug("Running for a team (PostgreSQL)")).toBe("running-for-a-team-postgresql");
    expect(githubSlug("The `threadline/v1` document")).toBe("the-threadlinev1-document");
    expect(githubSlug("4. OpenCode")).toBe("4-opencode");
    expect(githubSlug("Folders, and what each may import")).toBe("folders-and-what-each-may-import");
    expect(githubSlug("Retries and Idempotency-Key")).toBe("retries-and-idempotency-key");
  });

  it("numbers a repeated heading's anchor, and ignores headings in code blocks", () => {
    const anchors = anchorsOf("# Usage\n\n## Usage\n\n```sh\n# a comment, not a heading\n```\n\n## The `threadline/v1` document\n");
    expect([...anchors]).toEqual(["usage", "usage-1", "the-threadlinev1-document"]);
  });
});

describe("brokenLinks", () => {
  const repo = memoryRepo({
    "README.md": "",
    "docs/api.md": "# REST API\n\n## Context budgets\n",
    "docs/screenshot.png": "",
  });

  it("names the file, the line and the link of a missing file and of a missing anchor", () => {
    const text = [
      "# Threadline",
      "See [the API](docs/api.md) and [budgets](docs/api.md#context-budgets), ![shot](docs/screenshot.png),",
      "[a gone page](docs/gone.md), [a wrong anchor](docs/api.md#context-budget) and [here](#threadline).",
      "`[in code](docs/nowhere.md)`, [the web](https://example.com/x.md) and",
      "```md",
      "[in a fence](docs/nowhere.md)",
      "```",
      "[a link whose text",
      "wraps](#no-such-heading)",
    ].join("\n");
    const problems = brokenLinks([{ path: "README.md", text }], repo).map(describeProblem);
    expect(problems).toEqual([
      "README.md:3: [a gone page](docs/gone.md): docs/gone.md does not exist",
      "README.md:3: [a wrong anchor](docs/api.md#context-budget): no heading in docs/api.md gives the anchor #context-budget",
      "README.md:8: [a link whose text wraps](#no-such-heading): no heading in README.md gives the anchor #no-such-heading",
    ]);
  });

  it("resolves links from the linking file's folder, and refuses one that leaves the repository", () => {
    const text = "[back](../README.md), [api](api.md#rest-api), [root](/docs/api.md), [out](../../etc/passwd), [`code` in text](gone.md)";
    expect(brokenLinks([{ path: "docs/ui.md", text }], repo).map(describeProblem)).toEqual([
      "docs/ui.md:1: [out](../../etc/passwd): ../etc/passwd does not exist",
      "docs/ui.md:1: [`code` in text](gone.md): docs/gone.md does not exist",
    ]);
  });
});

describe("staleCodePaths", () => {
  it("names a path to code that is gone, and passes one that exists", () => {
    const repo = memoryRepo({ "lib/db/engine/client.ts": "" });
    const docs = [
      { path: "docs/architecture.md", text: "The client: `lib/db/engine/client.ts`.\nOnce it was lib/db/client.ts, in lib/db/engine/.\n" },
    ];
    expect(staleCodePaths(docs, repo).map(describeProblem)).toEqual([
      "docs/architecture.md:2: lib/db/client.ts: names code that does not exist",
    ]);
  });
});

describe("brokenCitations", () => {
  const sections = formatSections("# Formats\n\n## 4. OpenCode\n\n## 5. Pi\n");

  it("accepts a section that exists, with or without its title", () => {
    const text = '// docs/formats.md §4, "OpenCode"\n// docs/formats.md section 5, "Pi"\n// docs/formats.md §5';
    expect(brokenCitations([{ path: "lib/x.ts", text }], sections)).toEqual([]);
  });

  it("names a missing section, a wrong title and a citation of FORMATS.md", () => {
    const text = '/**\n * docs/formats.md §13, "Aider"\n * docs/formats.md §4, "Pi"\n * FORMATS.md section 11\n */';
    expect(brokenCitations([{ path: "lib/x.ts", text }], sections).map(describeProblem)).toEqual([
      'lib/x.ts:2: docs/formats.md §13, "Aider": docs/formats.md has no section 13',
      'lib/x.ts:3: docs/formats.md §4, "Pi": docs/formats.md section 4 is "OpenCode", not "Pi"',
      "lib/x.ts:4: FORMATS.md: FORMATS.md is not in this repository: cite docs/formats.md and its section",
    ]);
  });
});

describe("the repository's documentation", () => {
  it("has no relative link to a missing file or heading in README.md and docs/*.md", () => {
    expect(brokenLinks(markdownDocs(), diskRepo).map(describeProblem)).toEqual([]);
  });

  it("names only code that exists in README.md and docs/*.md", () => {
    expect(staleCodePaths(markdownDocs(), diskRepo).map(describeProblem)).toEqual([]);
  });

  it("cites only sections docs/formats.md has", () => {
    const sections = formatSections(diskRepo.read("docs/formats.md"));
    expect(sections.size).toBeGreaterThan(0);
    expect(brokenCitations(codeFiles(), sections).map(describeProblem)).toEqual([]);
  });

  it(`keeps README.md within ${README_MAX_LINES} lines`, () => {
    const lines = diskRepo.read("README.md").replace(/\n$/, "").split("\n").length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });
});

/** Where skill content comes from (`SKILLS_SOURCE`). */
export type SkillsSource =
  | { readonly _tag: "Bundled" }
  | {
    readonly _tag: "GitHub"
    readonly owner: string
    readonly repo: string
    /** Folder of the repository holding `<name>/SKILL.md`, without slashes at either end. */
    readonly path: string
    readonly ref: string
  }

export const bundled: SkillsSource = { _tag: "Bundled" }

const owner = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})"
const repo = "[A-Za-z0-9._-]{1,100}"
const folder = "(?:/[A-Za-z0-9._-]{1,100}){0,8}"
const githubForm = new RegExp(`^github:(${owner})/(${repo})(${folder})@([^\\s@]{1,200})$`)

/** Git's own ref-name rules, reduced to what matters here: nothing that could change the request path. */
const validRef = (ref: string) =>
  !/[\u0000-\u0020\u007f~^:?*[\\]/.test(ref) && !ref.includes("..") && !ref.includes("//") &&
  !ref.startsWith("/") && !ref.endsWith("/") && !ref.startsWith("-")

/**
 * `bundled`, or `github:owner/repo@ref` (skills under `skills/` in the repository, the layout of
 * this repository), or `github:owner/repo/some/folder@ref` (skills under that folder).
 */
export const parseSkillsSource = (value: string): SkillsSource | undefined => {
  const text = value.trim()
  if (text === "bundled") return bundled
  const match = githubForm.exec(text)
  if (match === null) return undefined
  const [, owner, repo, folderPart, ref] = match as unknown as [string, string, string, string, string]
  const segments = folderPart.split("/").filter((segment) => segment !== "")
  if (repo === "." || repo === ".." || segments.some((s) => s === "." || s === "..") || !validRef(ref)) {
    return undefined
  }
  return { _tag: "GitHub", owner, repo, path: segments.length > 0 ? segments.join("/") : "skills", ref }
}

/** The `SKILLS_SOURCE` text of a source (what `parseSkillsSource` reads back to the same source). */
export const formatSkillsSource = (source: SkillsSource): string =>
  source._tag === "Bundled"
    ? "bundled"
    : `github:${source.owner}/${source.repo}${source.path === "skills" ? "" : `/${source.path}`}@${source.ref}`

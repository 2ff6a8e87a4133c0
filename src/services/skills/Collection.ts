import { Effect } from "effect"
import { createHash } from "node:crypto"
import { parse as parseYaml } from "yaml"
import { isSkillName, type SkillFileKind, SkillFileKinds, type SkillName, SkillNames } from "../../domain/Skills.ts"

/**
 * A skills source as the mirror serves it, whichever source produced it. Skills and files are
 * looked up by name in these maps: a request never reaches the file system or the upstream with
 * a name it chose.
 */
export interface SkillCollection {
  /** A digest of every served path and text: changes whenever any served byte changes. */
  readonly version: string
  /** Where the content comes from (absolute URI). */
  readonly upstream: string
  /** The published skills, in the order of `SkillNames`. */
  readonly skills: ReadonlyMap<SkillName, PublishedSkill>
}

export interface PublishedSkill {
  readonly name: SkillName
  readonly description: string
  readonly compatibility: string | undefined
  readonly upstream: string | undefined
  /** SKILL.md, front matter included. */
  readonly skillMd: string
  /** File name → markdown, sorted by file name. */
  readonly files: Readonly<Record<SkillFileKind, ReadonlyMap<string, string>>>
}

/** Something in a skills source that is not served as it stands, with the path it concerns. */
export interface SourceProblem {
  readonly path: string
  readonly message: string
}

/** What a path (relative to the skills folder) is in the fixed layout. */
export type SkillPath =
  | { readonly _tag: "Main"; readonly skill: SkillName }
  | { readonly _tag: "File"; readonly skill: SkillName; readonly kind: SkillFileKind; readonly filename: string }
  | { readonly _tag: "Unexpected"; readonly reason: string }

/** File names the router can deliver as one path segment (it caps parameters at 100 characters). */
const isServableFileName = (name: string): boolean =>
  name.endsWith(".md") && name.length > 3 && name.length <= 100 && !name.startsWith(".") &&
  !/[\u0000-\u001f\u007f/\\]/.test(name)

const isKind = (value: string): value is SkillFileKind => (SkillFileKinds as ReadonlyArray<string>).includes(value)

export const classifyPath = (path: string): SkillPath => {
  const parts = path.split("/")
  const [skill, second, third] = parts
  const unexpected = (reason: string): SkillPath => ({ _tag: "Unexpected", reason })
  if (skill === undefined || !isSkillName(skill)) return unexpected("not inside a folder named after one of the skills")
  if (parts.length === 2 && second === "SKILL.md") return { _tag: "Main", skill }
  if (parts.length === 3 && second !== undefined && third !== undefined && isKind(second)) {
    return isServableFileName(third)
      ? { _tag: "File", skill, kind: second, filename: third }
      : unexpected("not a servable markdown file name (`.md`, at most 100 characters, no leading dot)")
  }
  return unexpected("outside the layout `<name>/SKILL.md`, `<name>/templates|references|prompts/<file>.md`")
}

interface FrontMatter {
  readonly name: string
  readonly description: string
  readonly compatibility: string | undefined
}

const frontMatterBlock = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/

/** The YAML front matter of a SKILL.md: `name` and `description` are required strings. */
export const parseFrontMatter = (markdown: string): FrontMatter | { readonly error: string } => {
  const block = frontMatterBlock.exec(markdown)
  if (block === null) return { error: "SKILL.md does not start with a `---` YAML front matter block" }
  let data: unknown
  try {
    data = parseYaml(block[1]!, { uniqueKeys: true, prettyErrors: false })
  } catch (error) {
    return { error: `front matter is not valid YAML (${(error as Error).message.split("\n")[0]})` }
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return { error: "front matter is not a YAML mapping" }
  }
  const fields = data as Record<string, unknown>
  const text = (key: string) => typeof fields[key] === "string" ? (fields[key] as string).trim() : undefined
  const name = text("name")
  const description = text("description")
  if (!name) return { error: "front matter has no `name` string" }
  if (!description) return { error: "front matter has no `description` string" }
  return { name, description, compatibility: text("compatibility") }
}

export interface SkillEntry {
  /** Relative to the skills folder: `svc-classify/templates/memo.md`. */
  readonly path: string
  readonly text: string
}

const digest = (entries: ReadonlyArray<SkillEntry>): string => {
  const hash = createHash("sha256")
  for (const entry of [...entries].sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) {
    hash.update(entry.path).update("\0").update(entry.text).update("\0")
  }
  return hash.digest("base64url").slice(0, 32)
}

const byName = (files: ReadonlyArray<readonly [string, string]>): ReadonlyMap<string, string> =>
  new Map([...files].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0))

/**
 * Groups the texts a source read into skills. A skill is published when its SKILL.md has valid
 * front matter whose `name` is its folder name; everything else is reported, never served.
 */
export const assemble = (options: {
  readonly entries: ReadonlyArray<SkillEntry>
  readonly upstream: string
  readonly skillUpstream?: (name: SkillName) => string
}): { readonly collection: SkillCollection; readonly problems: ReadonlyArray<SourceProblem> } => {
  const problems: Array<SourceProblem> = []
  const mains = new Map<SkillName, string>()
  const files = new Map<SkillName, Record<SkillFileKind, Array<readonly [string, string]>>>()
  for (const entry of options.entries) {
    const where = classifyPath(entry.path)
    if (where._tag === "Unexpected") {
      problems.push({ path: entry.path, message: where.reason })
    } else if (where._tag === "Main") {
      mains.set(where.skill, entry.text)
    } else {
      let kinds = files.get(where.skill)
      if (kinds === undefined) files.set(where.skill, kinds = { templates: [], references: [], prompts: [] })
      kinds[where.kind].push([where.filename, entry.text])
    }
  }
  const skills = new Map<SkillName, PublishedSkill>()
  for (const name of SkillNames) {
    const skillMd = mains.get(name)
    if (skillMd === undefined) {
      if (files.has(name)) problems.push({ path: `${name}/SKILL.md`, message: "missing: the skill is not published" })
      continue
    }
    const front = parseFrontMatter(skillMd)
    if ("error" in front) {
      problems.push({ path: `${name}/SKILL.md`, message: `${front.error}: the skill is not published` })
      continue
    }
    if (front.name !== name) {
      problems.push({
        path: `${name}/SKILL.md`,
        message: `front matter names ${JSON.stringify(front.name)}, not its folder: the skill is not published`
      })
      continue
    }
    const kinds = files.get(name)
    skills.set(name, {
      name,
      description: front.description,
      compatibility: front.compatibility,
      upstream: options.skillUpstream?.(name),
      skillMd,
      files: {
        templates: byName(kinds?.templates ?? []),
        references: byName(kinds?.references ?? []),
        prompts: byName(kinds?.prompts ?? [])
      }
    })
  }
  return { collection: { version: digest(options.entries), upstream: options.upstream, skills }, problems }
}

/** Caps that keep a misconfigured or hostile source from exhausting memory. */
export const limits = {
  maxFileBytes: 512 * 1024,
  maxFiles: 2_000,
  maxTotalBytes: 32 * 1024 * 1024
} as const

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** Strict UTF-8 decoding: a file that is not text is reported, not served garbled. */
export const decodeText = (bytes: Uint8Array): string | undefined => {
  try {
    return utf8.decode(bytes)
  } catch {
    return undefined
  }
}

/** Problems are logged (paths and reasons only) each time a source is read. */
export const logProblems = (problems: ReadonlyArray<SourceProblem>) =>
  Effect.forEach(problems, (problem) => Effect.logWarning("skills source problem", problem), { discard: true })

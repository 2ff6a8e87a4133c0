import { isSkillName, SkillFileKinds } from "../../src/domain/Skills.ts"
import type { PublishedSkill, SkillCollection, SourceProblem } from "../../src/services/skills/Collection.ts"
import { familyOf, type ServiceSurface, type SurfaceEndpoint } from "./ServiceSurface.ts"

// ---- mentions found in skill text ----

export interface EndpointMention {
  readonly method: string | undefined
  readonly path: string
  readonly query: ReadonlyArray<string>
  readonly line: string
}

const servicePrefixes = "api|skills|pdf|mcp|\\.well-known|health|openapi\\.json|docs|problems"
/** A base-URL placeholder (`{base_url}`, `{{BASE_URL}}`, `$BASE`, `<base>`) or an example host. */
const baseUrl = "(?:\\{\\{?\\s*[A-Za-z_]+\\s*\\}?\\}|\\$\\{?[A-Za-z_]+\\}?|<[A-Za-z_ -]+>|" +
  "https?://(?:localhost|127\\.0\\.0\\.1|[A-Za-z0-9.-]*example\\.[a-z]+)(?::\\d+)?)"
const endpointPattern = new RegExp(
  `(?:\\b(GET|POST|PUT|PATCH|DELETE|HEAD)\\s+)?(?:(?<![\\w/.:-])${baseUrl}|(?<![\\w/.:-]))` +
    `(/(?:${servicePrefixes})(?![\\w-]|\\.\\w)[^\\s\`'"()\\[\\]|,;]*)`,
  "g"
)

/** `GET /api/eccn/{eccn}`, `/api/csl?name=…`, `{base_url}/skills/svc-csl/bundle`: every service path in a text. */
export const endpointMentions = (text: string): Array<EndpointMention> =>
  text.split("\n").flatMap((line) =>
    Array.from(line.matchAll(endpointPattern), (match): EndpointMention => {
      const target = match[2]!.replace(/[.:!]+$/, "")
      const q = target.indexOf("?")
      const path = (q === -1 ? target : target.slice(0, q)).replace(/(.)\/$/, "$1")
      const query = q === -1 ? [] : target.slice(q + 1).split("&").map((pair) => pair.split("=")[0]!).filter(
        (name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
      )
      return { method: match[1], path, query, line: line.trim() }
    })
  )

const placeholderSegment = /[{}<>…]|^:[A-Za-z_]+$|^\.\.\.$/

const segmentsOf = (path: string): Array<string | undefined> =>
  path.split("/").slice(1).map((segment) => {
    if (placeholderSegment.test(segment)) return undefined
    try {
      return decodeURIComponent(segment)
    } catch {
      return segment
    }
  })

const matches = (endpoint: SurfaceEndpoint, mention: EndpointMention, segments: ReadonlyArray<string | undefined>) => {
  if (mention.method !== undefined && endpoint.method !== mention.method && endpoint.method !== "*") {
    if (!(mention.method === "HEAD" && endpoint.method === "GET")) return false
  }
  if (endpoint.open ? segments.length < endpoint.segments.length : segments.length !== endpoint.segments.length) {
    return false
  }
  return endpoint.segments.every((expected, i) =>
    expected === undefined || segments[i] === undefined || segments[i] === expected
  )
}

/** Tool-like names (`get_eccn`, `search_csl` …) anywhere, and any snake_case name right after "MCP" or "tool". */
export const toolMentions = (text: string): Array<string> => [
  ...Array.from(text.matchAll(/\b(?:get|search|list|create|check|find|record)_[a-z0-9_]*[a-z0-9]\b/g), (m) => m[0]),
  ...Array.from(text.matchAll(/\b(?:MCP|tool)s?:?\s+`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`/g), (m) => m[1]!)
]

export interface ArgumentMention {
  readonly tool: string
  readonly argument: string
}

const toolName = "((?:get|search|list|create|check|find|record)_[a-z0-9_]*[a-z0-9])"
const argumentList = "((?:`[a-z][a-z0-9_]*`(?:\\s*(?:,|and|or)\\s*)?)+)"
const argumentPatterns = [
  // MCP `get_enforcement_actions`, arguments `agency`, `limit`
  new RegExp(`\`${toolName}\`,?\\s+(?:with\\s+)?arguments?:?\\s+${argumentList}`, "g"),
  // `search_ecfr_part` (`part`, `query`, `per_page`)
  new RegExp(`\`${toolName}\`\\s+\\(${argumentList}`, "g"),
  // search_csl({ name: "…", sources: "EL,SDN" }) or `search_csl {"name": …}`
  new RegExp(`${toolName}\`?\\s*\\(?\\s*\\{([^}]*)\\}`, "g")
]

/** Arguments a skill gives a tool: `tool` (`a`, `b`), "`tool`, arguments `a`, `b`", `tool({ a: … })`. */
export const argumentMentions = (text: string): Array<ArgumentMention> =>
  argumentPatterns.flatMap((pattern, index) =>
    Array.from(text.matchAll(pattern)).flatMap((match) => {
      const tool = match[1]!
      const names = index === 2
        ? Array.from(match[2]!.matchAll(/(?:^|[,{\s])"?([a-z][a-z0-9_]*)"?\s*:/g), (m) => m[1]!)
        : Array.from(match[2]!.matchAll(/`([a-z][a-z0-9_]*)`/g), (m) => m[1]!)
      return names.map((argument) => ({ tool, argument }))
    })
  )

export const skillNameMentions = (text: string): Array<string> =>
  Array.from(text.matchAll(/(?<![\w-])svc-[a-z0-9]+(?:-[a-z0-9]+)*(?![\w-])/g), (m) => m[0])

// ---- template placeholders ----

const placeholderPattern = /\{\{([^{}]*)\}\}/g
const upperSnake = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/

export const placeholders = (template: string) => {
  const valid = new Set<string>()
  const malformed = new Set<string>()
  for (const [, inner] of template.matchAll(placeholderPattern)) {
    if (upperSnake.test(inner!)) valid.add(inner!)
    else malformed.add(`{{${inner}}}`)
  }
  return { valid, malformed }
}

/** The text of every section whose heading says "Template fields", subsections included. */
export const templateFieldsSection = (markdown: string): string => {
  const lines = markdown.split("\n")
  const parts: Array<string> = []
  let level = 0
  for (const line of lines) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    if (heading) {
      const depth = heading[1]!.length
      if (/template fields/i.test(heading[2]!)) level = depth
      else if (level > 0 && depth <= level) level = 0
    }
    if (level > 0) parts.push(line)
  }
  return parts.join("\n")
}

// ---- the checks ----

const kebabMarkdown = /^[a-z0-9]+(?:-[a-z0-9]+)*\.md$/

const filesOf = (skill: PublishedSkill): Array<{ path: string; text: string }> => [
  { path: `${skill.name}/SKILL.md`, text: skill.skillMd },
  ...SkillFileKinds.flatMap((kind) =>
    Array.from(skill.files[kind], ([file, text]) => ({ path: `${skill.name}/${kind}/${file}`, text }))
  )
]

export interface ContentReport {
  readonly problems: Array<SourceProblem>
  /** Mentions of SPEC endpoint families and MCP tools the app does not serve yet (see `ServiceSurface`). */
  readonly pending: Array<SourceProblem>
}

const checkEndpoints = (
  path: string,
  text: string,
  surface: ServiceSurface,
  collection: SkillCollection,
  { pending, problems }: ContentReport
) => {
  for (const mention of endpointMentions(text)) {
    const label = `${mention.method ?? ""} ${mention.path}${
      mention.query.length > 0 ? `?${mention.query.join("&")}` : ""
    }`.trim()
    const segments = segmentsOf(mention.path)
    const found = surface.endpoints.filter((endpoint) => matches(endpoint, mention, segments))
    if (found.length === 0) {
      const family = familyOf(segments)
      const built = surface.endpoints.some((endpoint) => familyOf(endpoint.segments) === family)
      if (!built && surface.specFamilies.has(family)) pending.push({ path, message: label })
      else problems.push({ path, message: `names \`${label}\`, which this service does not serve` })
      continue
    }
    if (found.every((endpoint) => endpoint.removed) && !/removed|410|retired|no longer/i.test(mention.line)) {
      problems.push({ path, message: `recommends the removed endpoint \`${label}\`` })
    }
    const unknown = mention.query.filter((name) =>
      found.every((endpoint) => endpoint.query !== undefined && !endpoint.query.has(name))
    )
    if (unknown.length > 0) {
      problems.push({ path, message: `\`${label}\` uses query parameters the endpoint does not take: ${unknown}` })
    }
    if (segments[0] === "skills" && segments[1] !== undefined) {
      const skill = isSkillName(segments[1]) ? collection.skills.get(segments[1]) : undefined
      const kind = segments[2] as typeof SkillFileKinds[number] | undefined
      if (skill === undefined) problems.push({ path, message: `\`${label}\` names a skill that is not published` })
      else if (kind !== undefined && segments[3] !== undefined && !skill.files[kind]?.has(segments[3])) {
        problems.push({ path, message: `\`${label}\` names a file the skill does not have` })
      }
    }
  }
}

/**
 * Everything in a skill collection that would mislead an agent: endpoints, MCP tools or skills
 * that do not exist, undocumented or malformed template placeholders, file names off the layout.
 */
export const checkCollection = (collection: SkillCollection, surface: ServiceSurface): ContentReport => {
  const report: ContentReport = { problems: [], pending: [] }
  const problems = report.problems
  for (const skill of collection.skills.values()) {
    const main = `${skill.name}/SKILL.md`
    if (skill.compatibility === undefined) problems.push({ path: main, message: "front matter has no `compatibility`" })
    if (skill.description.length > 1024) problems.push({ path: main, message: "description is over 1024 characters" })
    const documented = templateFieldsSection(skill.skillMd)
    for (const [file, template] of skill.files.templates) {
      const { malformed, valid } = placeholders(template)
      const path = `${skill.name}/templates/${file}`
      for (const token of malformed) {
        problems.push({ path, message: `malformed placeholder ${token} (use UPPER_SNAKE)` })
      }
      for (const name of valid) {
        if (!new RegExp(`(?<![A-Z0-9_])${name}(?![A-Z0-9_])`).test(documented)) {
          problems.push({ path, message: `placeholder {{${name}}} is not listed under "Template fields" in SKILL.md` })
        }
      }
    }
    for (const kind of SkillFileKinds) {
      for (const file of skill.files[kind].keys()) {
        if (!kebabMarkdown.test(file)) {
          problems.push({ path: `${skill.name}/${kind}/${file}`, message: "file name is not lowercase kebab-case .md" })
        }
      }
    }
    for (const { path, text } of filesOf(skill)) {
      if (text.trim().length < 40) problems.push({ path, message: "is (almost) empty" })
      checkEndpoints(path, text, surface, collection, report)
      for (const { argument, tool } of argumentMentions(text)) {
        const known = surface.mcpToolArguments?.get(tool)
        if (known !== undefined && !known.has(argument)) {
          problems.push({
            path,
            message: `gives MCP tool \`${tool}\` the argument \`${argument}\`, which it does not take`
          })
        }
      }
      for (const tool of new Set(toolMentions(text))) {
        if (surface.mcpToolNames.has(tool)) continue
        if (surface.specToolNames.has(tool)) report.pending.push({ path, message: `MCP ${tool}` })
        else problems.push({ path, message: `names MCP tool \`${tool}\`, which does not exist` })
      }
      for (const name of new Set(skillNameMentions(text))) {
        if (!isSkillName(name)) problems.push({ path, message: `names skill \`${name}\`, which does not exist` })
      }
    }
  }
  return report
}

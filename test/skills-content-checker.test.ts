import { describe, expect, it } from "@effect/vitest"
import { assemble, type SkillEntry } from "../src/services/skills/Collection.ts"
import { type ServiceSurface, serviceSurface } from "./support/ServiceSurface.ts"
import {
  checkCollection,
  endpointMentions,
  placeholders,
  skillNameMentions,
  templateFieldsSection,
  toolMentions
} from "./support/SkillContent.ts"

const main = (name: string, body: string) => ({
  path: `${name}/SKILL.md`,
  text: `---\nname: ${name}\ndescription: A test skill.\ncompatibility: REST\n---\n\n${body}\n`
})

const report = (entries: ReadonlyArray<SkillEntry>, surface: ServiceSurface) =>
  checkCollection(assemble({ entries, upstream: "https://example.test" }).collection, surface)

const check = (entries: ReadonlyArray<SkillEntry>, surface: ServiceSurface = serviceSurface()) =>
  report(entries, surface).problems.map((problem) => `${problem.path}: ${problem.message}`)

const endpoint = (method: string, path: string, query?: Array<string>) => ({
  method,
  segments: path.split("/").slice(1).map((s) => s.startsWith("{") ? undefined : s),
  open: false,
  query: query === undefined ? undefined : new Set(query),
  removed: false
})

describe("skill content checker", () => {
  it("finds endpoint mentions in prose, code and URLs with placeholders", () => {
    const text = [
      "Call `GET /api/eccn/{eccn}` (MCP `get_eccn`), then `GET /api/csl?name=ACME&sources=EL`.",
      "curl {base_url}/api/country-chart?country=DE and https://svc.example.com:8443/skills/svc-csl/bundle.",
      "POST /pdf/<slug>?draft=1 renders a preview; /health answers.",
      "Not ours: https://www.ecfr.gov/api/versioner/v1/titles.json, svc://skills/svc-csl, repo/skills/x, /apis."
    ].join("\n")
    expect(endpointMentions(text).map((m) => [m.method, m.path, m.query])).toEqual([
      ["GET", "/api/eccn/{eccn}", []],
      ["GET", "/api/csl", ["name", "sources"]],
      [undefined, "/api/country-chart", ["country"]],
      [undefined, "/skills/svc-csl/bundle", []],
      ["POST", "/pdf/<slug>", ["draft"]],
      [undefined, "/health", []]
    ])
  })

  it("finds tool names, skill names and placeholders", () => {
    expect(toolMentions("use `get_eccn`, `search_csl`; `create_<slug>_pdf`; field `affiliates_rule`; MCP `lookup_x`"))
      .toEqual(["get_eccn", "search_csl", "lookup_x"])
    expect(skillNameMentions("load svc-classify, then svc-csl; svc_live_ keys; (svc-nope)")).toEqual([
      "svc-classify",
      "svc-csl",
      "svc-nope"
    ])
    expect(placeholders("{{ECCN}} {{ITEM_NAME}} {{ lower }} {{Mixed_Case}} {{ECCN}}")).toEqual({
      valid: new Set(["ECCN", "ITEM_NAME"]),
      malformed: new Set(["{{ lower }}", "{{Mixed_Case}}"])
    })
    expect(templateFieldsSection("# A\n## Template fields\n- `X`\n### memo.md\n- `Y`\n## Refuse\n- `Z`")).toBe(
      "## Template fields\n- `X`\n### memo.md\n- `Y`"
    )
  })

  it("passes a collection whose every reference exists", () => {
    expect(check([
      main(
        "svc-csl",
        "Load `GET /skills/svc-csl/templates/record.md` or MCP `get_skill`; see svc-classify.\n" +
          "## Template fields\n- `PARTY`: the screened name."
      ),
      { path: "svc-csl/templates/record.md", text: "# Screening record\n\nParty: {{PARTY}}\nChecked by the analyst." }
    ])).toEqual([])
  })

  it("reports every kind of broken reference", () => {
    const surface: ServiceSurface = {
      endpoints: [endpoint("GET", "/api/eccn/{eccn}"), endpoint("GET", "/api/csl", ["name"]), {
        ...endpoint("*", "/api/classify"),
        open: true,
        removed: true
      }, endpoint("GET", "/skills/{name}/bundle")],
      mcpToolNames: new Set(["get_eccn"]),
      specToolNames: new Set(["get_eccn"]),
      specFamilies: new Set(["api/eccn", "api/radar"])
    }
    const problems = check([
      main(
        "svc-csl",
        [
          "Call `GET /api/eccn/3A001`, `GET /api/csl?name=X&fuzzy=1` and `POST /api/eccn/3A001`.",
          "Then `GET /api/ecfr/774/text/774.1` and `/api/classify/jobs` to classify.",
          "The old `/api/classify/*` workflow was removed.",
          "Fetch `GET /skills/svc-nope/bundle` and `GET /skills/svc-setup/bundle`; MCP `get_eccn`, `search_everything`.",
          "See svc-classification.",
          "## Template fields",
          "- `PARTY`: the party."
        ].join("\n")
      ),
      { path: "svc-csl/templates/Record Sheet.md", text: "Party {{PARTY}}, date {{DATE}}, {{ bad }}, and more text." },
      { path: "svc-csl/prompts/short.md", text: "Too short." }
    ], surface)
    expect(problems).toEqual([
      "svc-csl/templates/Record Sheet.md: malformed placeholder {{ bad }} (use UPPER_SNAKE)",
      "svc-csl/templates/Record Sheet.md: placeholder {{DATE}} is not listed under \"Template fields\" in SKILL.md",
      "svc-csl/templates/Record Sheet.md: file name is not lowercase kebab-case .md",
      "svc-csl/SKILL.md: `GET /api/csl?name&fuzzy` uses query parameters the endpoint does not take: fuzzy",
      "svc-csl/SKILL.md: names `POST /api/eccn/3A001`, which this service does not serve",
      "svc-csl/SKILL.md: names `GET /api/ecfr/774/text/774.1`, which this service does not serve",
      "svc-csl/SKILL.md: recommends the removed endpoint `/api/classify/jobs`",
      "svc-csl/SKILL.md: `GET /skills/svc-nope/bundle` names a skill that is not published",
      "svc-csl/SKILL.md: `GET /skills/svc-setup/bundle` names a skill that is not published",
      "svc-csl/SKILL.md: names MCP tool `search_everything`, which does not exist",
      "svc-csl/SKILL.md: names skill `svc-nope`, which does not exist",
      "svc-csl/SKILL.md: names skill `svc-classification`, which does not exist",
      "svc-csl/prompts/short.md: is (almost) empty"
    ])
  })

  it("checks the arguments skills give MCP tools against the tools' input schemas", () => {
    const surface: ServiceSurface = {
      endpoints: [],
      mcpToolNames: new Set(["get_enforcement_actions", "search_csl"]),
      mcpToolArguments: new Map([
        ["get_enforcement_actions", new Set(["agency", "limit"])],
        ["search_csl", new Set(["name", "sources"])]
      ]),
      specToolNames: new Set(),
      specFamilies: new Set()
    }
    const problems = check([
      main(
        "svc-csl",
        [
          "Pull the feed (MCP `get_enforcement_actions`, arguments `agency`, `limit` and `since_date`).",
          "Known: `get_enforcement_actions` (`agency`, `limit`, `page`).",
          "Screen with `search_csl({ name: \"ACME\", sources: \"EL,SDN\", fuzzy: true })`."
        ].join("\n")
      )
    ], surface)
    expect(problems).toEqual([
      "svc-csl/SKILL.md: gives MCP tool `get_enforcement_actions` the argument `since_date`, which it does not take",
      "svc-csl/SKILL.md: gives MCP tool `get_enforcement_actions` the argument `page`, which it does not take",
      "svc-csl/SKILL.md: gives MCP tool `search_csl` the argument `fuzzy`, which it does not take"
    ])
  })

  it("reports mentions of SPEC families the app does not serve yet as pending, not as problems", () => {
    const surface: ServiceSurface = {
      endpoints: [endpoint("GET", "/api/eccn/{eccn}")],
      mcpToolNames: new Set(["get_eccn"]),
      specToolNames: new Set(["get_eccn", "search_csl"]),
      specFamilies: new Set(["api/eccn", "api/radar"])
    }
    const entries = [
      main(
        "svc-csl",
        "Call `GET /api/radar?topic=ai`, `GET /api/eccn/3A001/x` and `GET /api/invented`; MCP `search_csl`, " +
          "`get_eccn` and `find_everyone`."
      )
    ]
    const { pending, problems } = report(entries, surface)
    expect(pending).toEqual([
      { path: "svc-csl/SKILL.md", message: "GET /api/radar?topic" },
      { path: "svc-csl/SKILL.md", message: "MCP search_csl" }
    ])
    expect(problems.map((p) => p.message)).toEqual([
      "names `GET /api/eccn/3A001/x`, which this service does not serve",
      "names `GET /api/invented`, which this service does not serve",
      "names MCP tool `find_everyone`, which does not exist"
    ])
  })

  it("derives the service surface from the OpenAPI document and the app's raw routes", () => {
    const surface = serviceSurface()
    const described = surface.endpoints.map((e) =>
      `${e.method} /${e.segments.map((s) => s ?? "{}").join("/")}${e.open ? "/*" : ""}${e.removed ? " removed" : ""}`
    )
    expect(described).toEqual(expect.arrayContaining([
      "GET /skills",
      "GET /skills/{}/templates/{}",
      "GET /problems/{}",
      "GET /docs",
      "* /api/classify/* removed"
    ]))
    expect(surface.mcpToolNames.has("get_skill_bundle")).toBe(true)
    expect(surface.mcpToolNames.has("create_restricted_party_screening_pdf")).toBe(true)
    expect(surface.specToolNames.has("search_court_records")).toBe(true)
  })
})

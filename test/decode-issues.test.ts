import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { SearchParams } from "../src/domain/Cfr.ts"
import * as DecodeIssues from "../src/domain/DecodeIssues.ts"
import { EccnParameter } from "../src/domain/Eccn.ts"
import { SupportedPartNumber } from "../src/domain/Service.ts"
import { SkillName } from "../src/domain/Skills.ts"
import { jsonArguments } from "../src/mcp/Tool.ts"

const issuesOf = (schema: Schema.Schema<any, any, never>, input: unknown) => {
  const decoded = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "error" })(input)
  if (Either.isRight(decoded)) throw new Error("expected the input to be rejected")
  return DecodeIssues.fromParseError(decoded.left)
}

const Arguments = Schema.Struct({
  limit: Schema.optional(Schema.Int.pipe(Schema.between(1, 100)).annotations({ description: "Maximum hits" })),
  name: SkillName,
  part: Schema.optional(SupportedPartNumber),
  section: Schema.optional(
    Schema.String.pipe(Schema.maxLength(32), Schema.pattern(/^\d{3}\.\d+$/)).annotations({
      description: "Section identifier `<part>.<number>`, e.g. `740.1`"
    })
  ),
  eccn: Schema.optional(EccnParameter),
  include_text: Schema.optional(Schema.Boolean),
  rows: Schema.optional(Schema.Array(Schema.Struct({ label: Schema.String })).pipe(Schema.maxItems(2)))
})

/** Effect's own phrasing, which must never reach a caller. */
const effectNoise = /Expected|actual|ReadonlyArray|readonly|between\(|maxLength\(|is missing|is unexpected|undefined/

describe("DecodeIssues", () => {
  it("phrases each kind of failure without Effect type names or the rejected value", () => {
    const issues = issuesOf(Arguments, {
      name: "svc-nope",
      limit: 1.5,
      part: 999,
      section: "not-a-section",
      eccn: "ZZZ",
      include_text: "yes",
      rows: [{ label: 7 }, {}, { label: "ok" }],
      limt: 4
    })
    expect(issues).toEqual([
      { path: "limt", message: "is not a known parameter; did you mean `limit`?" },
      { path: "limit", message: "must be an integer between 1 and 100" },
      { path: "name", message: expect.stringMatching(/^must be one of "svc-classify", "svc-audit-lookback", /) },
      {
        path: "part",
        message: "must be one of 121, 732, 734, 738, 740, 742, 744, 746, 748, 762, 772, 774"
      },
      {
        path: "section",
        message: "is not in the expected form (Section identifier `<part>.<number>`, e.g. `740.1`)"
      },
      { path: "eccn", message: expect.stringMatching(/^must be an ECCN \(/) },
      { path: "include_text", message: "must be true or false" },
      { path: "rows[0].label", message: "must be a string" },
      { path: "rows[1].label", message: "is required" },
      { path: "rows", message: "must be a list of at most 2 items, each an object" }
    ])
    for (const issue of issues) {
      expect(issue.message).not.toMatch(effectNoise)
      expect(issue.message).not.toContain("svc-nope")
    }
  })

  it("reports a missing required field and names the known ones for an unrelated unknown key", () => {
    expect(issuesOf(Arguments, { zzzzzzzz: 1 })).toEqual([
      {
        path: "zzzzzzzz",
        message: "is not a known parameter (known: `limit`, `name`, `part`, `section`, `eccn`, `include_text`, `rows`)"
      },
      { path: "name", message: "is required" }
    ])
  })

  it("describes the whole input when it is not an object, and summarizes in one line", () => {
    const issues = issuesOf(Arguments, [1, 2])
    expect(issues).toEqual([{ path: "", message: "must be an object" }])
    expect(DecodeIssues.summarize(issues, "arguments")).toBe("arguments must be an object")
    expect(DecodeIssues.summarize([
      { path: "per_page", message: "must be an integer between 1 and 20" },
      { path: "q", message: "is required" }
    ])).toBe("`per_page` must be an integer between 1 and 20; `q` is required")
  })

  it("phrases URL parameters converted from text as the value they must become", () => {
    const Query = Schema.Struct({ per_page: Schema.optional(SearchParams.per_page), q: SearchParams.q })
    expect(issuesOf(Query, { per_page: "abc", q: "" })).toEqual([
      { path: "per_page", message: "must be an integer between 1 and 20" },
      { path: "q", message: "must be a string of 1 to 500 characters" }
    ])
    // their JSON form (MCP arguments) takes numbers, and says so to a caller sending text
    const Json = jsonArguments(Schema.Struct({ per_page: Schema.optional(SearchParams.per_page) }))
    expect(issuesOf(Json, { per_page: "5" })).toEqual([{
      path: "per_page",
      message: "must be an integer between 1 and 20"
    }])
  })

  it("keeps the messages schema authors wrote", () => {
    const Name = Schema.Struct({
      name: Schema.String.pipe(Schema.minLength(1, { message: () => "must not be blank" })),
      day: Schema.String.pipe(Schema.filter((value) => value === "2025-01-01" || "not a calendar date"))
    })
    expect(issuesOf(Name, { name: "", day: "x" })).toEqual([
      { path: "name", message: "must not be blank" },
      { path: "day", message: "is not a calendar date" }
    ])
  })

  it("states what a schema accepts", () => {
    expect(DecodeIssues.expected(Schema.Int.pipe(Schema.between(1, 20)))).toBe("an integer between 1 and 20")
    expect(DecodeIssues.expected(Schema.Literal("EL", "SDN"))).toBe("one of \"EL\", \"SDN\"")
    expect(DecodeIssues.expected(Schema.String.pipe(Schema.maxLength(32)))).toBe("a string of at most 32 characters")
    expect(DecodeIssues.expected(Schema.Union(Schema.String, Schema.Number))).toBe("a string or a number")
  })
})

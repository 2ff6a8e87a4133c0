import { Context, Effect, Layer, Option, Schema } from "effect"
import { problem } from "../../../src/domain/Problem.ts"
import type * as Resource from "../../../src/mcp/Resource.ts"
import * as Tool from "../../../src/mcp/Tool.ts"

/**
 * Test-only MCP surface: a small glossary service with tools and resources over it, registered
 * through a test catalogue layer so protocol tests never depend on (or show) production tools.
 */
const Term = Schema.Struct({
  term: Schema.String,
  definition: Schema.String,
  citation: Schema.String,
  related: Schema.Array(Schema.String)
}).annotations({ identifier: "GlossaryTerm" })
type Term = typeof Term.Type

const termNotFound = problem({
  slug: "term-not-found",
  status: 404,
  title: "Term not found",
  description: "The glossary has no such term."
})
class TermNotFound extends Schema.TaggedError<TermNotFound>()("TermNotFound", {
  ...termNotFound.fields,
  nearest: Schema.Array(Schema.String)
}, termNotFound.annotations) {}

const terms: ReadonlyArray<Term> = [
  {
    term: "deemed export",
    definition: "A release of technology or source code to a foreign person in the United States.",
    citation: "15 CFR 734.13(b)",
    related: ["export", "release"]
  },
  {
    term: "export",
    definition: "An actual shipment or transmission of items out of the United States.",
    citation: "15 CFR 734.13(a)",
    related: ["reexport"]
  },
  {
    term: "release",
    definition: "Visual or other inspection by a foreign person that reveals technology or source code.",
    citation: "15 CFR 734.15",
    related: ["deemed export"]
  }
]

export interface GlossaryShape {
  readonly lookup: (term: string) => Effect.Effect<Term, TermNotFound>
  readonly all: Effect.Effect<ReadonlyArray<Term>>
}

export class Glossary extends Context.Tag("test/Glossary")<Glossary, GlossaryShape>() {}

export const GlossaryLive = Layer.succeed(Glossary, {
  lookup: (term) => {
    const found = terms.find((entry) => entry.term === term.toLowerCase())
    return found !== undefined ? Effect.succeed(found) : Effect.fail(
      new TermNotFound({
        detail: `The glossary has no term ${JSON.stringify(term)}.`,
        nearest: terms.filter((entry) => entry.term.includes(term.slice(0, 3))).map((entry) => entry.term)
      })
    )
  },
  all: Effect.succeed(terms)
})

const TermInput = Schema.Struct({
  term: Schema.String.pipe(Schema.minLength(1)).annotations({ description: "The term, e.g. `deemed export`" })
})

export const lookupTerm = Tool.make({
  name: "lookup_term",
  title: "Look up a glossary term",
  description: "Definition of an export-control term with its CFR citation.",
  version: "1.0.0",
  annotations: Tool.readOnly("Look up a glossary term"),
  input: TermInput,
  output: Tool.structured(Term),
  run: ({ term }) => Effect.flatMap(Glossary, (glossary) => glossary.lookup(term))
})

export const termNote = Tool.make({
  name: "term_note",
  title: "Glossary note",
  description: "A markdown note on a term, for quoting.",
  version: "1.1.0",
  deprecated: "Use lookup_term.",
  annotations: Tool.readOnly("Glossary note"),
  input: TermInput,
  output: Tool.text<Term>("text/markdown", (term) => `# ${term.term}\n\n${term.definition} (${term.citation})`),
  run: ({ term }) => Effect.flatMap(Glossary, (glossary) => glossary.lookup(term))
})

export const listTerms = Tool.make({
  name: "list_terms",
  title: "List glossary terms",
  description: "Every term of the glossary.",
  version: "1.0.0",
  annotations: Tool.readOnly("List glossary terms"),
  input: Schema.Struct({}),
  output: Tool.structured(Schema.Struct({ terms: Schema.Array(Schema.String) })),
  run: () =>
    Effect.map(Effect.flatMap(Glossary, (glossary) => glossary.all), (all) => ({ terms: all.map((t) => t.term) }))
})

export const termAudit = Tool.make({
  name: "term_audit",
  title: "Audit glossary usage",
  description: "Enterprise fixture: counts the glossary terms.",
  version: "2.0.0",
  enterprise: true,
  annotations: Tool.readOnly("Audit glossary usage"),
  input: Schema.Struct({}),
  output: Tool.structured(Schema.Struct({ count: Schema.Int })),
  run: () => Effect.map(Effect.flatMap(Glossary, (glossary) => glossary.all), (all) => ({ count: all.length }))
})

export const fixtureTools = [lookupTerm, termNote, listTerms, termAudit] as const

const uriOf = (term: string) => `glossary://terms/${encodeURIComponent(term)}`

export const glossaryResources: Resource.Provider<never, Glossary> = {
  name: "glossary",
  ttlMs: 60_000,
  templates: [{
    uriTemplate: "glossary://terms/{term}",
    name: "glossary-term",
    title: "Glossary term",
    description: "One glossary term as markdown",
    mimeType: "text/markdown"
  }],
  list: Effect.map(
    Effect.flatMap(Glossary, (glossary) => glossary.all),
    (all) => all.map((term) => ({ uri: uriOf(term.term), name: term.term, mimeType: "text/markdown" }))
  ),
  read: (uri) => {
    const prefix = "glossary://terms/"
    if (!uri.startsWith(prefix)) return Effect.succeed(Option.none())
    const term = decodeURIComponent(uri.slice(prefix.length))
    return Effect.flatMap(Glossary, (glossary) =>
      glossary.lookup(term).pipe(
        Effect.map((found) =>
          Option.some({ uri, mimeType: "text/markdown", text: `# ${found.term}\n\n${found.definition}` })
        ),
        Effect.catchTag("TermNotFound", () => Effect.succeed(Option.none()))
      ))
  }
}

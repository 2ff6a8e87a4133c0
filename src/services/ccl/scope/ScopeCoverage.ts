import { compareParagraphs } from "../Paragraphs.ts"
import type { ParagraphRef, ScopePart } from "./Conjuncts.ts"
import type { ControlScope, Statement } from "./ControlScope.ts"

/**
 * Does a control row apply to one paragraph of its entry (or, with `null`, to the entry as a
 * whole)? `Applies` only when the row's text says so without a condition; `NotApplies` only when
 * every part of the row names paragraphs and none of them is, contains or lies within the one
 * asked for; everything else `Depends`, quoting the words it depends on.
 */
export type Coverage =
  | { readonly _tag: "Applies" }
  | { readonly _tag: "NotApplies" }
  | {
    readonly _tag: "Depends"
    readonly conditions: ReadonlyArray<string>
    /** Only because the paragraph is named inside a condition ("for cameras controlled by 6A003.a.3"). */
    readonly mentionOnly?: boolean
  }

const applies: Coverage = { _tag: "Applies" }
const notApplies: Coverage = { _tag: "NotApplies" }
const depends = (conditions: ReadonlyArray<string>, mentionOnly = false): Coverage =>
  mentionOnly ? { _tag: "Depends", conditions, mentionOnly } : { _tag: "Depends", conditions }

/** `b.4.b` lies within `b.4` and within `b.4.b`. */
const within = (paragraph: string, ancestor: string) => paragraph === ancestor || paragraph.startsWith(`${ancestor}.`)

const parentOf = (paragraph: string) => paragraph.split(".").slice(0, -1).join(".")

/** yes: the asked paragraph is inside the reference; maybe: part of it is, or a conditional exception touches it. */
const refCovers = (ref: ParagraphRef, asked: string | null): "yes" | "maybe" | "no" => {
  if (asked === null) return "maybe"
  let inside: boolean
  let contains: boolean
  if (ref.through === undefined) {
    inside = within(asked, ref.paragraph)
    contains = !inside && within(ref.paragraph, asked)
  } else {
    const depth = ref.paragraph.split(".").length
    const parent = parentOf(ref.paragraph)
    if (parent !== parentOf(ref.through) || depth !== ref.through.split(".").length) return "maybe"
    const level = asked.split(".").slice(0, depth).join(".")
    inside = asked.split(".").length >= depth && parentOf(level) === parent &&
      compareParagraphs(level, ref.paragraph) >= 0 && compareParagraphs(level, ref.through) <= 0
    contains = !inside && (parent === "" ? false : within(parent, asked))
  }
  if (contains) return "maybe"
  if (!inside) return "no"
  for (const excepted of ref.except) {
    if (within(asked, excepted)) return ref.exceptExact ? "no" : "maybe"
    if (within(excepted, asked)) return "maybe"
  }
  return "yes"
}

const related = (mention: string, asked: string | null) =>
  asked === null || within(asked, mention) || within(mention, asked)

const partCoverage = (part: ScopePart, asked: string | null): Coverage => {
  if (part.entry) return part.exact ? applies : depends([part.quote])
  if (part.targets.length === 0) return depends([part.quote])
  const answers = part.targets.map((ref) => refCovers(ref, asked))
  if (answers.includes("yes")) return part.exact ? applies : depends([part.quote])
  if (answers.includes("maybe")) return depends([part.quote])
  return part.mentions.some((mention) => related(mention, asked)) ? depends([part.quote], true) : notApplies
}

/** Any part that applies settles it; a part that names the paragraph outranks one that only mentions it. */
const anyOf = (coverages: ReadonlyArray<Coverage>): Coverage => {
  if (coverages.some((c) => c._tag === "Applies")) return applies
  const all = coverages.filter((c) => c._tag === "Depends")
  if (all.length === 0) return notApplies
  const named = all.filter((c) => c.mentionOnly !== true)
  const conditions = [...new Set((named.length > 0 ? named : all).flatMap((c) => c.conditions))]
  return depends(conditions, named.length === 0)
}

/** What remains of `included` once `excluded` (what an "except …" names) is taken out. */
const without = (included: Coverage, excluded: Coverage): Coverage => {
  if (included._tag === "NotApplies" || excluded._tag === "NotApplies") return included
  if (excluded._tag === "Applies") return notApplies
  const unless = excluded.conditions.map((condition) => `except ${condition}`)
  return depends(included._tag === "Depends" ? [...included.conditions, ...unless] : unless)
}

const statementCoverage = (statement: Statement, asked: string | null): Coverage => {
  const coverage = without(
    anyOf(statement.include.map((part) => partCoverage(part, asked))),
    anyOf(statement.exclude.map((part) => partCoverage(part, asked)))
  )
  if (statement.remark === undefined || coverage._tag === "NotApplies") return coverage
  return depends([...(coverage._tag === "Depends" ? coverage.conditions : []), statement.remark])
}

/** Undefined when the scope could not be read: then nothing may be concluded from it. */
export const coverageOf = (scope: ControlScope, asked: string | null): Coverage | undefined => {
  if (scope._tag === "Unparsed") return undefined
  const positive = anyOf(scope.statements.filter((s) => !s.negative).map((s) => statementCoverage(s, asked)))
  return scope.statements
    .filter((s) => s.negative)
    .reduce((coverage, s) => without(coverage, anyOf(s.include.map((part) => partCoverage(part, asked)))), positive)
}

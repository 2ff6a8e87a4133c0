import { conjunctsOf, type ScopePart } from "./Conjuncts.ts"

/**
 * What a CCL control row applies to, read from its "Control(s)" cell: one or more statements
 * ("NS applies to entire entry, except .e, .x, and .y"; "MT also applies to 9A515.h when …";
 * "MT does not apply to …"), each naming the entire entry or paragraphs of the entry, with
 * descriptions, conditions and exceptions kept as quotable text. A text this grammar does not
 * recognize is `Unparsed`, never read as "entire entry".
 */
export type ControlScope =
  | { readonly _tag: "Parsed"; readonly statements: ReadonlyArray<Statement> }
  | { readonly _tag: "Unparsed"; readonly problem: string }

export interface Statement {
  readonly reason: string | null
  /** "MT does not apply to …": removes what it names from the row's other statements. */
  readonly negative: boolean
  readonly include: ReadonlyArray<ScopePart>
  readonly exclude: ReadonlyArray<ScopePart>
  /**
   * Sentences after the statement ("A license is required for all destinations, except Canada …").
   * They are not read as scope, but a statement carrying one is never answered without it.
   */
  readonly remark?: string
}

/** Reason codes (or the Russian sanctions) followed by "applies", "also applies", "does not apply" … */
const statementStart =
  /(?<=^|[\s.;:(])(?:Note:\s*)?(?:([A-Z]{2,3})|Russian industry sector sanctions?)\s+(?:(also|does not|does)\s+)?appl(?:ies|y)\b/g

/**
 * Sentences that comment on the row rather than scope it ("A license is required for all
 * destinations …", "See § 742.19 …"): where they begin, the statement ends.
 */
export const remark =
  /\.\s+(?=A license is required|Accordingly|See\b|The Commerce Country Chart|Note to\b|Refer to\b|This licensing requirement)/

/** Where each statement of a "Control(s)" text starts, and the reason for control it names. */
export const statementsIn = (text: string): Array<{ readonly index: number; readonly reason: string | null }> =>
  [...text.matchAll(statementStart)].map((start) => ({ index: start.index, reason: start[1] ?? null }))

/** Typographic slips of the CCL's control rows (`9A004 .g`, `8A620. b`, `3A001.z. 1.b`), undone before reading. */
export const normalizeScopeText = (text: string): string =>
  text
    .replace(/[\u00a0\s]+/g, " ")
    .replace(/\b(\d[A-E]\d{3})\s+\.(?=[a-z](?:\b|\.))/g, "$1.")
    .replace(/\b(\d[A-E]\d{3})\.\s+(?=[a-z](?:[\s,]|\.\d|$))/g, "$1.")
    .replace(/\b(\d[A-E]\d{3}(?:\.[a-z0-9]+)*\.[a-z])\.\s+(?=\d)/g, "$1.")
    .trim()

const trimEnd = (text: string) => text.replace(/[\s.]+$/, "").trim()

/** What a statement applies to, and the sentences after it that comment on it. */
const objectOf = (raw: string): { readonly object: string; readonly remark?: string } => {
  const cut = remark.exec(raw)
  return cut === null
    ? { object: trimEnd(raw) }
    : { object: trimEnd(raw.slice(0, cut.index)), remark: trimEnd(raw.slice(cut.index + 1)) }
}

/** Reads one control row's "applies to" text; `eccn` is the entry the row belongs to. */
export const parseControlScope = (text: string, eccn: string): ControlScope => {
  const normalized = normalizeScopeText(text)
  const starts = [...normalized.matchAll(statementStart)]
  if (starts.length === 0) return { _tag: "Unparsed", problem: "no \"… applies to\" statement" }
  if (normalized.slice(0, starts[0]!.index).trim() !== "") {
    return { _tag: "Unparsed", problem: "text before the first \"applies to\" statement" }
  }
  const reasons = new Set(starts.flatMap((start) => (start[1] === undefined ? [] : [start[1]])))
  if (reasons.size > 1) return { _tag: "Unparsed", problem: "several reasons for control in one row" }

  const statements: Array<Statement> = []
  for (const [i, start] of starts.entries()) {
    const end = starts[i + 1]?.index ?? normalized.length
    const { object, remark } = objectOf(normalized.slice(start.index + start[0].length, end))
    if (object === "" || object.startsWith(",")) {
      return { _tag: "Unparsed", problem: "a statement does not say what it applies to" }
    }
    const parts = conjunctsOf(object, eccn)
    if (typeof parts === "string") return { _tag: "Unparsed", problem: parts }
    statements.push({
      reason: start[1] ?? null,
      negative: start[2] === "does not",
      ...parts,
      ...(remark === undefined ? {} : { remark })
    })
  }
  return { _tag: "Parsed", statements }
}

import type { Tone } from "../../domain/documents/Fields.ts"
import { Colors, ToneColors } from "../pdf/Theme.ts"
import { h, layoutSvg, type Node } from "./Raster.ts"

/**
 * A graphic sized in points for the content width. Its size is known at once, its drawing later:
 * the layout reserves the space and draws the SVG satori laid out once it is ready.
 */
export interface Picture {
  readonly svg: Promise<string>
  readonly width: number
  readonly height: number
  /** What the picture shows, as text: its alternate description in the tagged PDF. */
  readonly alt: string
}

export interface Fact {
  readonly label: string
  readonly value: string
  readonly tone?: Tone
}

const font = { fontFamily: "IBM Plex Sans" }

const pill = (label: string, tone: Tone, size = 11): Node =>
  h({
    backgroundColor: ToneColors[tone].bg,
    color: ToneColors[tone].fg,
    borderRadius: 999,
    padding: `${size * 0.3}px ${size * 0.8}px`,
    fontSize: size,
    fontWeight: 600
  }, label)

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** The cover's "at a glance" card: the headline facts of the document, toned by its status. */
export const coverCard = (
  facts: ReadonlyArray<Fact>,
  width: number,
  options: { readonly compact?: boolean } = {}
): Picture => {
  // the compact card (a one-page certificate) sets each value on one line under its label
  const compact = options.compact === true
  const height = compact ? 66 : 118
  const cells = facts.slice(0, 4).map((fact) =>
    h(
      {
        flexDirection: "column",
        flex: 1,
        padding: compact ? "10px 14px" : "14px 16px",
        borderLeft: `1px solid ${Colors.rule}`
      },
      h({ fontSize: 8, letterSpacing: 1, color: Colors.muted, fontWeight: 600 }, fact.label.toUpperCase()),
      fact.tone
        ? h({ marginTop: compact ? 7 : 10 }, pill(clip(fact.value, 28), fact.tone, compact ? 11 : 12))
        : h(
          {
            marginTop: compact ? 6 : 8,
            fontSize: compact ? (fact.value.length > 18 ? 11 : 14) : fact.value.length > 14 ? 13 : 18,
            fontWeight: 700,
            color: Colors.navy
          },
          clip(fact.value, compact ? 40 : 60)
        )
    )
  )
  const element = h(
    { ...font, width, height, backgroundColor: "#FFFFFF", border: `1px solid ${Colors.rule}`, borderRadius: 8 },
    h({ width: 6, height: "100%", backgroundColor: Colors.accent, borderRadius: "8px 0 0 8px" }),
    ...cells
  )
  const alt = `At a glance: ${facts.slice(0, 4).map((fact) => `${fact.label}: ${fact.value}`).join("; ")}.`
  return { svg: layoutSvg(element, width, height), width, height, alt }
}

export interface RiskRow {
  readonly label: string
  readonly level: number
  readonly value: string
  readonly tone: Tone
}

const levels = ["Low", "Medium", "High", "Critical"] as const
const levelTones: ReadonlyArray<Tone> = ["good", "caution", "warning", "danger"]

/** A risk profile: one four-step scale per risk area, the assessed step filled. */
export const riskSummary = (overall: RiskRow | undefined, rows: ReadonlyArray<RiskRow>, width: number): Picture => {
  const rowHeight = 26
  const height = 44 + rows.length * rowHeight + 12
  const scale = (level: number) =>
    h(
      { flex: 1 },
      ...levels.map((name, i) =>
        h({
          flex: 1,
          height: 16,
          marginLeft: i === 0 ? 0 : 3,
          borderRadius: 3,
          alignItems: "center",
          justifyContent: "center",
          fontSize: 7.5,
          fontWeight: 600,
          backgroundColor: i === level ? ToneColors[levelTones[i]!].fg : i < level ? "#CBD2D9" : "#EEF1F4",
          color: i === level ? "#FFFFFF" : Colors.muted
        }, name.toUpperCase())
      )
    )
  const element = h(
    { ...font, width, height, flexDirection: "column", backgroundColor: Colors.zebra, borderRadius: 8, padding: 14 },
    h(
      { alignItems: "center", justifyContent: "space-between", marginBottom: 8 },
      h({ fontSize: 10, fontWeight: 700, color: Colors.navy, letterSpacing: 0.6 }, "RISK PROFILE"),
      overall
        ? h(
          { alignItems: "center" },
          h({ fontSize: 9, color: Colors.muted, marginRight: 8 }, "Overall"),
          pill(overall.value, overall.tone, 10)
        )
        : ""
    ),
    ...rows.map((row) =>
      h(
        { alignItems: "center", height: rowHeight },
        h({ width: 150, fontSize: 9.5, color: Colors.ink }, row.label),
        scale(row.level)
      )
    )
  )
  const alt = `Risk profile${overall ? `, overall ${overall.value}` : ""}: ` +
    `${rows.map((row) => `${row.label} ${row.value}`).join("; ")}.`
  return { svg: layoutSvg(element, width, height), width, height, alt }
}

export interface FlowStep {
  readonly number: number
  readonly title: string
  readonly outcome?: { readonly label: string; readonly tone: Tone }
  readonly finding?: string
}

/** The order of review as a flow of numbered steps, each toned by its outcome, ending in the result. */
export const reviewFlow = (steps: ReadonlyArray<FlowStep>, result: string, width: number): Picture => {
  const columns = 3
  const gap = 22
  const boxWidth = (width - 28 - gap * (columns - 1)) / columns
  const boxHeight = 118
  const rows = Math.ceil(steps.length / columns)
  const height = 28 + rows * boxHeight + (rows - 1) * 18 + 58
  const box = (step: FlowStep, index: number) => {
    const tone = step.outcome?.tone ?? "neutral"
    return h(
      { alignItems: "center" },
      h(
        {
          width: boxWidth,
          height: boxHeight,
          flexDirection: "column",
          backgroundColor: "#FFFFFF",
          border: `1px solid ${Colors.rule}`,
          borderTop: `4px solid ${ToneColors[tone].fg}`,
          borderRadius: 6,
          padding: "8px 10px"
        },
        h({ fontSize: 8, fontWeight: 700, color: Colors.accent, letterSpacing: 0.8 }, `STEP ${step.number}`),
        h({ fontSize: 9.2, fontWeight: 600, color: Colors.navy, marginTop: 2, height: 38 }, clip(step.title, 64)),
        h({ marginTop: 4 }, pill(step.outcome?.label ?? "Not recorded", tone, 8)),
        h({ fontSize: 7.8, color: Colors.muted, marginTop: 5 }, clip(step.finding ?? "", 90))
      ),
      index % columns < columns - 1 && index < steps.length - 1
        ? h({ width: gap, justifyContent: "center", fontSize: 14, color: Colors.faint }, "→")
        : ""
    )
  }
  const grid = Array.from(
    { length: rows },
    (_, r) =>
      h(
        { marginTop: r === 0 ? 0 : 18 },
        ...steps.slice(r * columns, r * columns + columns).map((step, i) => box(step, r * columns + i))
      )
  )
  const element = h(
    { ...font, width, height, flexDirection: "column", backgroundColor: Colors.zebra, borderRadius: 8, padding: 14 },
    h({ fontSize: 10, fontWeight: 700, color: Colors.navy, letterSpacing: 0.6, marginBottom: 8 }, "ORDER OF REVIEW"),
    ...grid,
    h(
      {
        marginTop: 14,
        height: 32,
        alignItems: "center",
        justifyContent: "center",
        backgroundColor: Colors.navy,
        borderRadius: 6,
        color: "#FFFFFF",
        fontSize: 11,
        fontWeight: 600
      },
      clip(result, 90)
    )
  )
  const alt = `Review steps: ${
    steps.map((step) =>
      `${step.number}. ${step.title}${step.outcome ? ` (${step.outcome.label})` : ""}${
        step.finding ? `: ${step.finding}` : ""
      }`
    ).join("; ")
  }. ${result}.`
  return { svg: layoutSvg(element, width, height), width, height, alt }
}

import type { Tone } from "../../domain/documents/Fields.ts"

/** Colours, sizes and page geometry of every document (points; US Letter). */
export const Page = { width: 612, height: 792, marginX: 60, top: 78, bottom: 70 } as const

export const contentWidth = Page.width - 2 * Page.marginX

export const Colors = {
  ink: "#1F2933",
  muted: "#52606D",
  faint: "#9AA5B1",
  rule: "#D9E2EC",
  navy: "#0B2545",
  accent: "#1D5C85",
  accentLight: "#E6EFF6",
  headerFill: "#EDF2F7",
  zebra: "#F7F9FB",
  link: "#1D5C85",
  watermark: "#B42318"
}

export const ToneColors: Readonly<Record<Tone, { readonly fg: string; readonly bg: string }>> = {
  good: { fg: "#1E6B45", bg: "#E3F2E9" },
  caution: { fg: "#8A5A00", bg: "#FBF0D5" },
  warning: { fg: "#A2440F", bg: "#FCE6D8" },
  danger: { fg: "#9F1F14", bg: "#FBE3E1" },
  neutral: { fg: "#3E4C59", bg: "#EAEEF2" }
}

export const Type: Readonly<Record<"body" | "bodyGap" | "small" | "label" | "table" | "h1" | "h2", number>> = {
  body: 9.8,
  bodyGap: 2.6,
  small: 8.2,
  label: 7.4,
  table: 8.2,
  h1: 15,
  h2: 11.2
}

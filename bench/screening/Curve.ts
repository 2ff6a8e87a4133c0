import { Resvg } from "@resvg/resvg-js"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

/**
 * The precision/recall-versus-threshold picture of the screening docs: an SVG drawn here from the
 * bench's held-out curve, rasterised by resvg with the project's own font (IBM Plex Sans).
 */

export interface CurvePoint {
  readonly threshold: number
  readonly recall: number
  readonly precision: number
  readonly negativesAlerting: number
}

const width = 760
const height = 440
const left = 70
const right = 30
const top = 50
const bottom = 70
const plotWidth = width - left - right
const plotHeight = height - top - bottom

const series = [
  { key: "recall", label: "recall (target first, at or above the threshold)", color: "#1f6feb" },
  { key: "precision", label: "precision of the alerts", color: "#2da44e" },
  { key: "negativesAlerting", label: "negatives alerting", color: "#cf222e" }
] as const

export const svg = (points: ReadonlyArray<CurvePoint>, chosen: number, caption: string): string => {
  const minT = points[0]!.threshold
  const maxT = points.at(-1)!.threshold
  const x = (t: number) => left + ((t - minT) / (maxT - minT)) * plotWidth
  const y = (v: number) => top + (1 - v) * plotHeight
  const grid = [0, 0.2, 0.4, 0.6, 0.8, 1].map((v) =>
    `<line x1="${left}" x2="${left + plotWidth}" y1="${y(v)}" y2="${y(v)}" stroke="#d0d7de"/>` +
    `<text x="${left - 8}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(1)}</text>`
  ).join("")
  const ticks = points.filter((p) => p.threshold % 10 === 0).map((p) =>
    `<text x="${x(p.threshold)}" y="${top + plotHeight + 20}" text-anchor="middle">${p.threshold}</text>`
  ).join("")
  const lines = series.map((s) =>
    `<polyline fill="none" stroke="${s.color}" stroke-width="2.5" points="${
      points.map((p) => `${x(p.threshold).toFixed(1)},${y(p[s.key]).toFixed(1)}`).join(" ")
    }"/>`
  ).join("")
  const legend = series.map((s, i) =>
    `<rect x="${x(56)}" y="${y(0.66) + i * 20}" width="14" height="4" fill="${s.color}"/>` +
    `<text x="${x(56) + 20}" y="${y(0.66) + 6 + i * 20}">${s.label}</text>`
  ).join("")
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="IBM Plex Sans" font-size="13" fill="#24292f">
<rect width="${width}" height="${height}" fill="#ffffff"/>
<text x="${left}" y="28" font-size="16">Screening: precision and recall against min_score (held-out labelled set)</text>
${grid}${ticks}
<line x1="${x(chosen)}" x2="${x(chosen)}" y1="${top}" y2="${top + plotHeight}" stroke="#57606a" stroke-dasharray="5,4"/>
<text x="${x(chosen) + 5}" y="${top + 14}">default ${chosen}</text>
${lines}${legend}
<text x="${left + plotWidth / 2}" y="${height - 30}" text-anchor="middle">min_score</text>
<text x="${left}" y="${height - 10}" font-size="11" fill="#57606a">${caption}</text>
</svg>`
}

const fontFile = () => {
  const require = createRequire(import.meta.url)
  const entry = require.resolve("@expo-google-fonts/ibm-plex-sans/400Regular/index.js")
  return join(dirname(entry), "IBMPlexSans_400Regular.ttf")
}

export const png = (svgText: string): Buffer =>
  new Resvg(svgText, { font: { fontFiles: [fontFile()], loadSystemFonts: false, defaultFontFamily: "IBM Plex Sans" } })
    .render().asPng()

import type { CfrSection } from "../../domain/Cfr.ts"
import { escapeHtml } from "./RenderHtml.ts"

/** A section as a self-contained HTML fragment: its heading, then its sanitized body. */
export const sectionFragment = (section: CfrSection, title: number): string =>
  `<section class="cfr-section" data-citation="${escapeHtml(`${title} CFR ${section.identifier}`)}">\n` +
  `<h2>${escapeHtml(section.label)}</h2>\n${section.html}\n</section>\n`

/** A section as clean readable text: its heading, a blank line, then its body. */
export const sectionPlainText = (section: CfrSection): string =>
  section.plain === "" ? `${section.label}\n` : `${section.label}\n\n${section.plain}\n`

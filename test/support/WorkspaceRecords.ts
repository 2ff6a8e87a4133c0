import type { Note } from "../../src/domain/workspace/Notes.ts"
import type { StoredProduct } from "../../src/domain/workspace/Products.ts"
import type { Screening } from "../../src/domain/workspace/Screenings.ts"
import type { Transaction } from "../../src/domain/workspace/Transactions.ts"

/** One record of each workspace kind, as the tools store them (synthetic names). */
export const transaction: Transaction = {
  reference: "PO-7731",
  date: "2026-04-02",
  status: "flagged",
  open_steps: ["jurisdiction", "screen", "license", "export_docs", "red_flags"],
  destination: "AE",
  value: { amount: 48000, currency: "USD" },
  parties: [{ name: "Gulf Relay Logistics FZE", role: "consignee", country: "AE" }],
  items: [{ description: "Frequency synthesizer", eccn: "3A001.b.5", jurisdiction: "EAR", schedule_b: "8543709960" }],
  events: [
    { type: "classify", status: "complete", summary: "3A001.b.5", at: "2026-04-02T10:00:00.000Z" },
    {
      type: "screen",
      status: "flagged",
      summary: "Address match",
      links: [{ url: "https://example.test/pdf/x", label: "screen" }],
      at: "2026-04-02T11:00:00.000Z"
    }
  ],
  created_at: "2026-04-02T10:00:00.000Z",
  updated_at: "2026-04-02T11:00:00.000Z"
}

export const product: StoredProduct = {
  label: "Synth Module SM-4",
  jurisdiction: "EAR",
  eccn: "3A001.b.5",
  rationale: "Meets 3A001.b.5 phase noise",
  memo_document: "CM-2026-031",
  classified_by: "A. Analyst",
  classified_on: "2026-03-30",
  updated_at: "2026-03-30T09:00:00.000Z"
}

export const note: Note = {
  id: "note_00112233aabbccdd",
  target: { cfr: "15 CFR 740.17(b)(2)" },
  text: "Counsel: mass-market review done",
  created_at: "2026-03-01T08:00:00.000Z"
}

export const screening: Screening = {
  id: "scr_0011223344556677",
  party: "Gulf Relay Logistics FZE",
  country: "AE",
  decision: "escalated",
  analyst: "B. Analyst",
  hits: [{ id: "csl:EL:991", score: 88 }],
  ownership: { checked: true, aggregate_listed_percent: 0 },
  affiliates_rule: { disposition: "under_review" },
  screened_at: "2026-04-02T10:30:00.000Z",
  list_published_at: "2026-04-01T00:00:00.000Z"
}

import type { Citation } from "../../domain/RegulatoryStatus.ts"

/**
 * Dated regulatory facts, in one versioned module. Each fact is a timeline of states; the state in
 * force on a date is the last entry whose `from` is on or before it. An extension or new rule is
 * recorded by adding an entry (and bumping `factsVersion`), never by editing history.
 *
 * Only citations that were verified are recorded. Where a Federal Register citation is not
 * recorded, the summary says so and points to the radar.
 */
export const factsVersion = "2026-11-22.1"

export interface TimelineEntry {
  /** YYYY-MM-DD; the state starts at 00:00 UTC on this date. `undefined` = before any dated change. */
  readonly from: string | undefined
  readonly state: string
  readonly summary: string
}

export interface DatedFact {
  readonly id: string
  readonly title: string
  readonly timeline: ReadonlyArray<TimelineEntry>
  readonly eccns: ReadonlyArray<string>
  readonly cfr: ReadonlyArray<string>
  readonly citations: ReadonlyArray<Citation>
}

const fr = (reference: string, documentNumber?: string): Citation => ({
  kind: "federal-register",
  reference,
  ...(documentNumber ? { url: `https://www.federalregister.gov/d/${documentNumber}` } : {})
})

export const affiliatesRule = {
  id: "affiliates-rule",
  title: "Affiliates Rule (50 percent ownership rule for Entity List, MEU and certain SDN parties)",
  suspendedThrough: "2026-11-09",
  snapBackDate: "2026-11-10",
  timeline: [
    {
      from: "2025-09-29",
      state: "in_force",
      summary: "License requirements of the Entity List, the Military End-User List and certain OFAC SDN programs " +
        "extend to foreign entities owned 50% or more, directly or indirectly, individually or in the aggregate, " +
        "by listed parties; a new red flag applies when ownership by a listed party is known but the percentage " +
        "cannot be determined."
    },
    {
      from: "2025-11-10",
      state: "suspended",
      summary: "BIS suspended the Affiliates Rule for one year (through 2026-11-09). List-based restrictions apply " +
        "only to the listed entities and addresses; ownership by a listed party remains a red flag to resolve."
    },
    {
      from: "2026-11-10",
      state: "in_force",
      summary: "The suspension ended on 2026-11-09 and no extension is recorded: the 50 percent rule applies again " +
        "from 2026-11-10. Screen owners as well as the named party, and obtain a license where a listed owner " +
        "holds 50% or more (or where ownership by a listed party is known but the share cannot be determined)."
    }
  ],
  eccns: [],
  cfr: ["15 CFR 744.11", "15 CFR 744.21", "15 CFR part 744, Supplement No. 4", "15 CFR part 732, Supplement No. 3"],
  citations: [
    fr(
      "FR Doc 2025-19001 (90 FR 47201), interim final rule, effective 2025-09-29: Expansion of End-User Controls To " +
        "Cover Affiliates of Certain Listed Entities",
      "2025-19001"
    ),
    fr(
      "Final rule published in 90 FR No. 216 (November 2025): One Year Suspension of Expansion of End-User Controls " +
        "for Affiliates of Certain Listed Entities, suspension effective 2025-11-10 through 2026-11-09"
    )
  ]
} as const satisfies DatedFact & { readonly suspendedThrough: string; readonly snapBackDate: string }

export const suppressorTransfer = {
  id: "suppressor-transfer",
  title: "Firearm suppressors move to the Commerce Control List",
  effectiveDate: "2026-11-20",
  timeline: [
    {
      from: undefined,
      state: "pending",
      summary: "The transfer of firearm suppressors to the CCL is pending; until the effective date they remain " +
        "controlled as before the transfer."
    },
    {
      from: "2026-11-20",
      state: "effective",
      summary: "Suppressors are controlled on the CCL from 2026-11-20 under ECCNs 0A501.f and 0A502.f; classify " +
        "and license them under the EAR (Country Chart reasons for control of those entries, part 740 exceptions " +
        "as listed). The Federal Register citation is not recorded in this data module: confirm it with " +
        "`GET /api/radar?topic=suppressors`."
    }
  ],
  eccns: ["0A501.f", "0A502.f"],
  cfr: ["15 CFR part 774, Supplement No. 1 (Category 0)"],
  citations: []
} as const satisfies DatedFact & { readonly effectiveDate: string }

/** Standing notes: facts that carry a status but no pending transition. */
export const notes: ReadonlyArray<DatedFact> = [
  {
    id: "ai-diffusion-rescission",
    title: "AI Diffusion rule rescinded",
    timeline: [
      {
        from: "2025-05-13",
        state: "rescinded",
        summary: "BIS announced on 2025-05-13 that it would not enforce the Framework for Artificial Intelligence " +
          "Diffusion and would rescind it, with a replacement rule to follow. Controls on advanced computing items " +
          "that predate that rule (ECCNs 3A090, 4A090 and related .z items; 15 CFR 742.6(a)(6), 744.23) remain. " +
          "Check `GET /api/radar?topic=ai` for the formal rescission and any replacement."
      }
    ],
    eccns: ["3A090", "4A090", "4E091"],
    cfr: ["15 CFR 742.6(a)(6)", "15 CFR 744.23"],
    citations: [
      fr(
        "FR Doc 2025-00636 (90 FR 4544), interim final rule, effective 2025-01-13: Framework for Artificial " +
          "Intelligence Diffusion",
        "2025-00636"
      ),
      { kind: "guidance", reference: "BIS press release of 2025-05-13 announcing the rescission and non-enforcement" }
    ]
  },
  {
    id: "destination-syria",
    title: "Syria: export controls eased",
    timeline: [
      {
        from: "2025-09-02",
        state: "eased",
        summary: "Following E.O. 14312 (revocation of Syria sanctions), BIS relaxed the Syria controls: License " +
          "Exception SPP (Syria Peace and Prosperity) authorizes EAR99 items, more license exceptions are available " +
          "for Syria, and license review policies are more favorable. A license is still required for items on " +
          "the CCL unless an exception applies, and part 744 end-use/end-user controls and remaining sanctioned " +
          "persons still apply."
      }
    ],
    eccns: ["EAR99"],
    cfr: ["15 CFR 746.9"],
    citations: [
      fr("FR Doc 2025-16724, final rule, effective 2025-09-02: Syria", "2025-16724"),
      { kind: "executive-order", reference: "E.O. 14312, Providing for the Revocation of Syria Sanctions (2025-06-30)" }
    ]
  },
  {
    id: "destination-uae",
    title: "United Arab Emirates: advanced computing exports under the bilateral AI partnership",
    timeline: [
      {
        from: undefined,
        state: "license_required",
        summary: "Advanced computing items (3A090, 4A090 and related items) still need a license to the UAE. Under " +
          "the U.S.-UAE AI partnership announced in May 2025, BIS has been approving such licenses for specified " +
          "projects; approvals are case by case and carry conditions. Do not treat the partnership as a general " +
          "authorization."
      }
    ],
    eccns: ["3A090", "4A090"],
    cfr: ["15 CFR 742.6(a)(6)"],
    citations: []
  },
  {
    id: "advanced-computing-guidance",
    title: "Advanced computing guidance (BIS, 2025-05-13)",
    timeline: [
      {
        from: "2025-05-13",
        state: "active",
        summary: "Three BIS guidance documents apply: using PRC advanced-computing integrated circuits meeting the " +
          "3A090 parameters (for example Huawei Ascend chips) risks violating General Prohibition 10; supplying " +
          "compute for training AI models for end users in Country Group D:5 or Macau can trigger license " +
          "requirements; and a list of red flags and due diligence steps against diversion of advanced ICs."
      }
    ],
    eccns: ["3A090", "4A090"],
    cfr: ["15 CFR 736.2(b)(10)", "15 CFR 744.6", "15 CFR part 732, Supplement No. 3"],
    citations: [{
      kind: "guidance",
      reference: "BIS guidance and policy statement on advanced computing ICs, 2025-05-13"
    }]
  }
]

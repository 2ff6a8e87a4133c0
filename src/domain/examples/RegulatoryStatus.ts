/**
 * The regulatory-status answer for 2026-11-26, as computed from the dated-facts module (version
 * 2026-11-22.1); items cut to the first three.
 */
export const regulatoryStatus = {
  "as_of": "2026-11-26",
  "facts_version": "2026-11-22.1",
  "banner":
    "Affiliates Rule in force again since 2026-11-10 (suspension ended 2026-11-09). Suppressors controlled under 0A501.f and 0A502.f since 2026-11-20. Details: get_regulatory_status.",
  "affiliates_rule": {
    "state": "in_force",
    "asOf": "2026-11-26",
    "suspendedThrough": "2026-11-09",
    "snapBackDate": "2026-11-10",
    "daysUntilSnapBack": null,
    "summary":
      "The suspension ended on 2026-11-09 and no extension is recorded: the 50 percent rule applies again from 2026-11-10. Screen owners as well as the named party, and obtain a license where a listed owner holds 50% or more (or where ownership by a listed party is known but the share cannot be determined).",
    "citations": [
      "FR Doc 2025-19001 (90 FR 47201), interim final rule, effective 2025-09-29: Expansion of End-User Controls To Cover Affiliates of Certain Listed Entities",
      "Final rule published in 90 FR No. 216 (November 2025): One Year Suspension of Expansion of End-User Controls for Affiliates of Certain Listed Entities, suspension effective 2025-11-10 through 2026-11-09"
    ]
  },
  "items": [
    {
      "id": "affiliates-rule",
      "title": "Affiliates Rule (50 percent ownership rule for Entity List, MEU and certain SDN parties)",
      "state": "in_force",
      "since": "2026-11-10",
      "summary":
        "The suspension ended on 2026-11-09 and no extension is recorded: the 50 percent rule applies again from 2026-11-10. Screen owners as well as the named party, and obtain a license where a listed owner holds 50% or more (or where ownership by a listed party is known but the share cannot be determined).",
      "nextTransition": null,
      "daysUntilNextTransition": null,
      "eccns": [],
      "cfr": [
        "15 CFR 744.11",
        "15 CFR 744.21",
        "15 CFR part 744, Supplement No. 4",
        "15 CFR part 732, Supplement No. 3"
      ],
      "citations": [
        {
          "kind": "federal-register",
          "reference":
            "FR Doc 2025-19001 (90 FR 47201), interim final rule, effective 2025-09-29: Expansion of End-User Controls To Cover Affiliates of Certain Listed Entities",
          "url": "https://www.federalregister.gov/d/2025-19001"
        },
        {
          "kind": "federal-register",
          "reference":
            "Final rule published in 90 FR No. 216 (November 2025): One Year Suspension of Expansion of End-User Controls for Affiliates of Certain Listed Entities, suspension effective 2025-11-10 through 2026-11-09"
        }
      ]
    },
    {
      "id": "suppressor-transfer",
      "title": "Firearm suppressors move to the Commerce Control List",
      "state": "effective",
      "since": "2026-11-20",
      "summary":
        "Suppressors are controlled on the CCL from 2026-11-20 under ECCNs 0A501.f and 0A502.f; classify and license them under the EAR (Country Chart reasons for control of those entries, part 740 exceptions as listed). The Federal Register citation is not recorded in this data module: confirm it with `GET /api/radar?topic=suppressors`.",
      "nextTransition": null,
      "daysUntilNextTransition": null,
      "eccns": [
        "0A501.f",
        "0A502.f"
      ],
      "cfr": [
        "15 CFR part 774, Supplement No. 1 (Category 0)"
      ],
      "citations": []
    },
    {
      "id": "ai-diffusion-rescission",
      "title": "AI Diffusion rule rescinded",
      "state": "rescinded",
      "since": "2025-05-13",
      "summary":
        "BIS announced on 2025-05-13 that it would not enforce the Framework for Artificial Intelligence Diffusion and would rescind it, with a replacement rule to follow. Controls on advanced computing items that predate that rule (ECCNs 3A090, 4A090 and related .z items; 15 CFR 742.6(a)(6), 744.23) remain. Check `GET /api/radar?topic=ai` for the formal rescission and any replacement.",
      "nextTransition": null,
      "daysUntilNextTransition": null,
      "eccns": [
        "3A090",
        "4A090",
        "4E091"
      ],
      "cfr": [
        "15 CFR 742.6(a)(6)",
        "15 CFR 744.23"
      ],
      "citations": [
        {
          "kind": "federal-register",
          "reference":
            "FR Doc 2025-00636 (90 FR 4544), interim final rule, effective 2025-01-13: Framework for Artificial Intelligence Diffusion",
          "url": "https://www.federalregister.gov/d/2025-00636"
        },
        {
          "kind": "guidance",
          "reference": "BIS press release of 2025-05-13 announcing the rescission and non-enforcement"
        }
      ]
    }
  ],
  "disclaimer":
    "Status notes summarize public rules for orientation; they are not legal advice. Confirm against the cited Federal Register documents and the current eCFR text before relying on them."
} as const

/**
 * Examples of the skills answers shown by the OpenAPI document: the bundled `svc-classify` skill,
 * its files cut after their opening lines.
 */
export const skillList = {
  "count": 20,
  "upstream": "https://ecds.example.org/skills",
  "mcp": "https://ecds.example.org/mcp",
  "skills": [
    {
      "name": "svc-classify",
      "description":
        "Classify a commodity, software or technology under U.S. export controls by walking the full order of review (subject to the EAR, ITAR jurisdiction, CCL order of review with 600-series and 9x515 first, \"specially designed\", ECCN paragraph, EAR99) and write a cited classification memo. Use it whenever someone needs an ECCN, an EAR99 determination or a defensible record of how one was reached; it replaces the removed classification workflow of this service.",
      "urls": {
        "skill_md": "https://ecds.example.org/skills/svc-classify",
        "bundle": "https://ecds.example.org/skills/svc-classify/bundle",
        "templates": [
          "https://ecds.example.org/skills/svc-classify/templates/classification-memo.md",
          "https://ecds.example.org/skills/svc-classify/templates/classification-request-outline.md"
        ],
        "references": [
          "https://ecds.example.org/skills/svc-classify/references/ccl-category-map.md",
          "https://ecds.example.org/skills/svc-classify/references/classification-pitfalls.md"
        ],
        "prompts": [
          "https://ecds.example.org/skills/svc-classify/prompts/classify-item.md",
          "https://ecds.example.org/skills/svc-classify/prompts/engineering-questionnaire.md"
        ]
      },
      "assets": {
        "templates": [
          "classification-memo.md",
          "classification-request-outline.md",
          "order-of-review-worksheet.md",
          "product-classification-matrix.md"
        ],
        "references": [
          "ccl-category-map.md",
          "classification-pitfalls.md",
          "evidence-checklist.md",
          "order-of-review.md",
          "reading-an-eccn-entry.md",
          "specially-designed.md"
        ],
        "prompts": [
          "classify-item.md",
          "engineering-questionnaire.md",
          "second-review-checklist.md"
        ]
      }
    }
  ]
} as const

export const skillBundle = {
  "name": "svc-classify",
  "description":
    "Classify a commodity, software or technology under U.S. export controls by walking the full order of review (subject to the EAR, ITAR jurisdiction, CCL order of review with 600-series and 9x515 first, \"specially designed\", ECCN paragraph, EAR99) and write a cited classification memo. Use it whenever someone needs an ECCN, an EAR99 determination or a defensible record of how one was reached; it replaces the removed classification workflow of this service.",
  "skill_md":
    "---\nname: svc-classify\ndescription: Classify a commodity, software or technology under U.S. export controls by walking the full order of review (subject to the EAR, ITAR jurisdiction, CCL order of review with 600-series and 9x515 first, \"specially designed\", ECCN paragraph, EAR99) and write a cited classification memo. Use it whenever someone needs an ECCN, an EAR99 determination or a defensible record of how one was reached; it replaces the removed classification workflow of this service.\ncompatibility: Needs the Export Compliance Data Service over REST (no credentials for regulatory reads and screening) or MCP (authenticated). Rendering the memo as a PDF with POST /pdf/classification needs an API key and one prepaid credit; draft previews are free.\n---\n\n# svc-classify: export classification by the order of review\n\nThe service no longer classifies items for you. This skill is the replacement: the agent walks the\nsame order of review a trade-compliance officer would, reading the regulation text from the service\nat every step, and ends with a memo that a human reviewer signs. The output is a documented\nself-classification, not a legal opinion and not a BIS ruling.\n\n## When to use\n\n- A product, part, software release or technology package needs an ECCN or an EAR99 designation.\n- An existing classification must be re-checked after a design change or a rule change.\n\n…\n",
  "templates": {
    "classification-memo.md":
      "# Export Classification Memorandum {{DOC_NUMBER}}\n\nEvery placeholder is a key of the classification PDF contract (`get_pdf_contract` with\n`document: \"classification\"`): the filled memo maps one to one onto the `create_pdf` payload, and\nthe contract's `sections` say which section or order-of-review step each key belongs to.\n\n| | |\n|---|---|\n| Organisation | {{COMPANY_NAME}} |\n| Date | {{DATE}} |\n| Version and status | {{VERSION}}, {{DOCUMENT_STATUS}} |\n| From | {{FROM_NAME_TITLE}} |\n| To | {{TO_NAME_TITLE}} |\n| Subject | {{SUBJECT}} |\n| Regulation data as of | {{REGULATORY_CURRENCY_AS_OF}} |\n| Overall risk | {{OVERALL_RISK}} |\n\n\n…\n"
  },
  "references": {
    "ccl-category-map.md":
      "# CCL category and product-group map\n\nUse this to choose where to start reading; the CCL text decides. Entries can be read with\n`GET /api/eccn/{eccn}` and searched with `GET /api/ecfr/774/search?q=...`.\n\n## Categories\n\n| category | title (short) | typical subjects | watch for |\n|---|---|---|---|\n| 0 | Nuclear materials, facilities and equipment, and miscellaneous items | nuclear reactor items, firearms and related items (0x5zz), 600-series vehicles, training and miscellaneous military items, 0Y521 | firearms moved from the USML; suppressor items (check `GET /api/regulatory-status`) |\n\n…\n"
  },
  "prompts": {
    "classify-item.md":
      "# Prompt: classify one item\n\nCopy this prompt to an agent that has the service connected (REST or MCP) and the `svc-classify`\nskill loaded. Replace the bracketed text before sending.\n\n---\n\nClassify the following item under U.S. export controls using the `svc-classify` skill. Work only\nfrom the public information below; if you need something that would be controlled technical data,\nask me for a public description instead.\n\nItem: [name, model or version]\nType: [commodity / software (object or source) / technology]\nWhat it does: [function in plain words]\nKey parameters: [figures with units and their source document]\nDesign history: [who designed it, for which application or program]\n\n…\n"
  }
} as const

export const skillMarkdown = skillBundle.skill_md

export const templateMarkdown = skillBundle.templates["classification-memo.md"]

export const referenceMarkdown = skillBundle.references["ccl-category-map.md"]

export const promptMarkdown = skillBundle.prompts["classify-item.md"]

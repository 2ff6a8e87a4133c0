/**
 * Examples of the service documents shown by the OpenAPI document, as a public deployment at
 * `https://ecds.example.org` answers them (lists cut to their first entries).
 */
export const serviceIndex = {
  "name": "Export Compliance Data Service",
  "version": "2.3.0",
  "runtime": "node v22.11.0",
  "docs": "https://ecds.example.org/docs",
  "health": "https://ecds.example.org/health",
  "endpoints": {
    "ecfr": [
      "GET /api/ecfr/meta — supported parts, per-part snapshot state and the refresh schedule",
      "GET /api/ecfr/search — full-text search of a CFR title (15 or 22), current version"
    ],
    "radar": [
      "GET /api/radar — recent BIS, DDTC and OFAC rulemaking from the Federal Register, by topic"
    ],
    "enforcement": [
      "GET /api/enforcement — live feed of BIS, DDTC and DOJ enforcement actions, newest first",
      "GET /api/enforcement/docs — search the enforcement document archive (or `stats=1` for its coverage)"
    ],
    "intel": [
      "GET /api/federal-register — search the Federal Register (rules, proposed rules, notices) by relevance",
      "GET /api/federal-register/{document_number} — one Federal Register document: metadata and plain-text body"
    ],
    "skills": [
      "GET /skills — the 20 skills: descriptions, file names and absolute URLs",
      "GET /skills/{name} — a skill's main file (SKILL.md) as text/markdown"
    ],
    "mcp": [
      "GET /.well-known/mcp — MCP discovery document: versions, headers, auth, tools (enterprise ones for authenticated callers), regulatory status",
      "GET /.well-known/oauth-protected-resource/mcp — OAuth protected-resource metadata of /mcp (RFC 9728): the authorization server"
    ],
    "documents": [
      "GET /pdf/{slug}/contract — payload contract of a document type: keys, required keys, enums, notes",
      "POST /pdf/{slug} — render a document as PDF (JSON payload ≤ 1 MB; ?draft=1 free watermarked preview; final: 1 credit)"
    ],
    "spec": [
      "GET / — service index: version, endpoint directory, supported CFR parts",
      "GET /health — health, version and eCFR reachability (not cached)"
    ]
  },
  "supportedParts": [
    {
      "part": 121,
      "title": 22,
      "label": "US Munitions List (USML)",
      "url": "https://ecds.example.org/api/ecfr/121"
    },
    {
      "part": 732,
      "title": 15,
      "label": "Steps for Using the EAR",
      "url": "https://ecds.example.org/api/ecfr/732"
    },
    {
      "part": 734,
      "title": 15,
      "label": "Scope of the Export Administration Regulations",
      "url": "https://ecds.example.org/api/ecfr/734"
    }
  ]
} as const

export const health = {
  "status": "ok",
  "service": "Export Compliance Data Service",
  "version": "2.3.0",
  "runtime": "node v22.11.0",
  "timestamp": "2026-11-18T09:15:02.311Z",
  "ecfr": "ok",
  "cache": {
    "dataCacheControl": "public, max-age=3600, stale-while-revalidate=86400",
    "cfrEdgeTtlSeconds": 3600,
    "skillsEdgeTtlSeconds": 21600,
    "screeningEdgeTtlSeconds": 3600,
    "dailyRefresh": "00:00 UTC"
  }
} as const

export const readiness = {
  "status": "degraded",
  "service": "Export Compliance Data Service",
  "version": "2.3.0",
  "timestamp": "2026-11-18T09:15:02.348Z",
  "checks": [
    {
      "name": "ecfr",
      "critical": true,
      "status": "ok",
      "summary": "12 of 12 parts stored; newest issue 2026-11-18",
      "details": {
        "upstream": "ok",
        "stored_parts": 12,
        "parts": [
          {
            "part": 740,
            "state": "fresh",
            "issue_date": "2026-11-18",
            "age_seconds": 33302,
            "last_failure": null
          }
        ]
      }
    },
    {
      "name": "skills",
      "critical": false,
      "status": "ok",
      "summary": "20 of 20 skills published",
      "details": {
        "source": "bundled",
        "skills": 20
      }
    },
    {
      "name": "enforcement_archive",
      "critical": false,
      "status": "degraded",
      "summary":
        "the archive is empty: set ENFORCEMENT_COLLECTOR_CONTACT to collect it, or import documents with `ecds enforcement import <dir>`",
      "details": {
        "documents": 0,
        "imported_at": null,
        "by_parse_status": {
          "parsed": 0,
          "no_text": 0,
          "pending": 0,
          "no_pdf": 0,
          "failed": 0
        },
        "by_source": []
      }
    },
    {
      "name": "store",
      "critical": false,
      "status": "ok",
      "summary": "the embedded database answers; DATA_DIR is writable",
      "details": {
        "engine": "embedded",
        "latency_millis": 3,
        "data_dir_writable": true
      }
    }
  ]
} as const

export const problemType = {
  "type": "https://ecds.example.org/problems/eccn-not-found",
  "title": "ECCN not found",
  "status": 404,
  "description":
    "The Commerce Control List has no such entry (or the entry has no such paragraph); `nearest` lists the closest existing ones. For a paragraph, `itemTextAvailable` says whether the entry's item text was there to look in."
} as const

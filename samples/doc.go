// Package samples serves rolegate's two sample endpoints, GET /api/ping and
// GET /api/test, with their Basic-auth and X-API-KEY credential checks.
package samples

// Package samples serves rolegate's two sample endpoints, GET /api/ping and
// GET /api/test, with their Basic-auth and X-API-KEY credential checks.
//
// GET /api/ping, with valid Basic credentials, answers text/plain with the
// server's local date and time in the layout PingLayout (dd.MM.yyyy,
// HH:mm:ss). GET /api/test, with valid Basic credentials and X-API-KEY,
// answers {"Name": ..., "Email": ...}. Anything else is 401 with a Basic
// challenge and rolegate's error envelope. Secrets are kept only as SHA-256
// digests and compared in constant time; nothing is logged.
//
// The credentials come from AUTH_SAMPLES_USERNAME, AUTH_SAMPLES_PASSWORD and
// AUTH_SAMPLES_API_KEY (see ConfigFromEnv). When they are not all set, the
// routes are not mounted and the host prints DisabledHint:
//
//	cfg := samples.ConfigFromEnv(os.Getenv)
//	if !cfg.Enabled() {
//		log.Println(samples.DisabledHint)
//	} else if err := samples.Register(router, cfg); err != nil {
//		log.Fatal(err)
//	}
//
// The package imports no other rolegate package.
package samples

package store

// Settings keys of the login's generated signing secret (in
// rolegate_settings), shared by loginx, which seals and opens it, and
// loginapi, which reseals it when the encryption key rotates.
const (
	// LegacySecretSetting held the generated secret in plain text (earlier
	// versions). It is wrapped into SealedSecretSetting, or deleted when an
	// explicit secret replaces it, and never written again.
	LegacySecretSetting = "jwt_secret"
	// SealedSecretSetting holds "<sealer>:<sealed secret>".
	SealedSecretSetting = "jwt_secret_sealed"
)

// SecretNamespace separates the secret's encryption subkeys from every
// client namespace (those are SHA-256 digests, 32 bytes).
var SecretNamespace = []byte("rolegate/loginx/jwt-secret")

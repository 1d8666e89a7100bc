package authz

import (
	"context"
	"crypto/hmac"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
)

// settingCipherFormat marks a store whose every encrypted value is in the
// current format (2: bound to column and client, tagged with the key id)
// under the key of the key check value.
const (
	settingCipherFormat = "cipher_format"
	cipherFormat        = "2"
)

// reencodeHook, when set (tests), runs after each committed batch of a
// conversion or rotation; an error stops the pass there, as a crash would.
var reencodeHook func(az *Authz, batch int) error

// initEncryption derives the keys and brings the store to the current
// format under AUTH_ENCRYPTION_KEY: it converts plain names and values of
// the earlier, unbound format, and re-encrypts values under
// AUTH_ENCRYPTION_KEY_PREVIOUS (a key rotation), in one resumable pass
// under the migration lock. A start with a key the store is not (and is
// not being moved to) under is refused.
func (az *Authz) initEncryption(ctx context.Context) error {
	c, err := az.openCipher(ctx, az.cfg.EncryptionKey)
	if err != nil {
		return err
	}
	var prev *cipher.Cipher
	if az.cfg.EncryptionKeyPrevious != "" {
		if prev, err = az.openCipher(ctx, az.cfg.EncryptionKeyPrevious); err != nil {
			return fmt.Errorf("%w (AUTH_ENCRYPTION_KEY_PREVIOUS)", err)
		}
	}
	st, err := readCipherState(ctx, az.db, c, prev)
	if err != nil {
		return err
	}
	if !st.done(c) {
		err := storage.WithMigrationLock(ctx, az.db, storage.EncryptedTables(), func(ctx context.Context, db bun.IDB) (bool, error) {
			return az.reencode(ctx, db, c, prev)
		})
		if err != nil {
			return fmt.Errorf("authz: encryption: %w", err)
		}
		if st, err = readCipherState(ctx, az.db, c, prev); err != nil {
			return err
		}
	} else if prev != nil && prev.CheckValue() != c.CheckValue() {
		az.log.Info("encryption: the store is under AUTH_ENCRYPTION_KEY; AUTH_ENCRYPTION_KEY_PREVIOUS is no longer needed")
	}
	az.cipher, az.generation = c, st.generation
	return nil
}

// Settings of the store's encryption state, beside settingCipherCheck.
const (
	// settingCipherGeneration: the key generation of the values under the
	// key of the key check value (cipher.GenerationPrefix).
	settingCipherGeneration = "cipher_generation"
)

// cipherState is the store's encryption state, from rolegate_settings.
type cipherState struct {
	check      string // key check value of the key the store is under; "" for none
	writer     string // storage.SettingCipherWriter: "<first 16 hex of the check value>/<generation>" writers must use
	format     string
	generation int // of the values under check's key; 0 for none (plain, or format 1)
}

// writerValue is the value of storage.SettingCipherWriter for writers under
// c at generation g (also their Scope.KeyCheck, which every write sends):
// the first 16 hex digits of the key check value (64 bits tell keys apart)
// and the generation.
func writerValue(c *cipher.Cipher, g int) string { return c.CheckValue()[:16] + "/" + strconv.Itoa(g) }

// readCipherState reads the state and refuses it when it is under neither
// c nor prev.
func readCipherState(ctx context.Context, db bun.IDB, c, prev *cipher.Cipher) (cipherState, error) {
	var st cipherState
	var gen string
	for key, dst := range map[string]*string{settingCipherCheck: &st.check, storage.SettingCipherWriter: &st.writer,
		settingCipherFormat: &st.format, settingCipherGeneration: &gen} {
		v, _, err := storage.GetSetting(ctx, db, key)
		if err != nil {
			return st, fmt.Errorf("authz: %w", err)
		}
		*dst = v
	}
	st.generation, _ = strconv.Atoi(gen)
	is := func(v string, k *cipher.Cipher) bool {
		return k != nil && hmac.Equal([]byte(v), []byte(k.CheckValue()))
	}
	writerCheck, _, _ := strings.Cut(st.writer, "/")
	isWriter := func(k *cipher.Cipher) bool {
		return k != nil && hmac.Equal([]byte(writerCheck), []byte(k.CheckValue()[:16]))
	}
	if st.writer != "" && !isWriter(c) && !isWriter(prev) {
		return st, errors.New("authz: AUTH_ENCRYPTION_KEY is not the key this database is encrypted (or being re-encrypted) with")
	}
	if st.check != "" && !is(st.check, c) && !is(st.check, prev) {
		if prev == nil {
			return st, errors.New("authz: AUTH_ENCRYPTION_KEY is not the key this database was encrypted with (to rotate keys, set the old one as AUTH_ENCRYPTION_KEY_PREVIOUS)")
		}
		return st, errors.New("authz: neither AUTH_ENCRYPTION_KEY nor AUTH_ENCRYPTION_KEY_PREVIOUS is the key this database was encrypted with")
	}
	return st, nil
}

// done: every value is in the current format under c.
func (st cipherState) done(c *cipher.Cipher) bool {
	return hmac.Equal([]byte(st.check), []byte(c.CheckValue())) && st.format == cipherFormat &&
		st.generation >= cipher.FirstGeneration && st.writer == writerValue(c, st.generation)
}

// target is the generation a pass to c writes: the one a pass cut off was
// writing, the next after the previous key's in a rotation, or the first.
func (st cipherState) target(c *cipher.Cipher, rotating bool) int {
	if _, g, ok := strings.Cut(st.writer, "/"); ok && strings.HasPrefix(st.writer, c.CheckValue()[:16]+"/") {
		if n, err := strconv.Atoi(g); err == nil && n >= cipher.FirstGeneration {
			return n
		}
	}
	if rotating {
		return max(st.generation+1, cipher.FirstGeneration)
	}
	return max(st.generation, cipher.FirstGeneration)
}

// reencode runs the conversion or rotation pass, holding the migration
// lock: another replica may have finished it meanwhile. It reports whether
// anything was rewritten.
func (az *Authz) reencode(ctx context.Context, db bun.IDB, c, prev *cipher.Cipher) (bool, error) {
	st, err := readCipherState(ctx, db, c, prev)
	if err != nil || st.done(c) {
		return false, err
	}
	// The key the store's values are under now: c (a plain store, one of
	// the unbound format, or a pass resumed), or prev (a rotation).
	source := c
	rotating := st.check != "" && !hmac.Equal([]byte(st.check), []byte(c.CheckValue()))
	if rotating {
		source = prev
	}
	target := st.target(c, rotating)
	// From here on, writers without c are refused (storage.RecordChange).
	if err := setSetting(ctx, db, storage.SettingCipherWriter, writerValue(c, target)); err != nil {
		return false, err
	}
	if err := storage.WaitForWriters(ctx, db); err != nil {
		return false, err
	}
	what := "converting plain and unbound values"
	if rotating {
		what = "re-encrypting under the new key (rotation)"
	}
	az.log.Info("encryption: "+what+" under the migration lock", "batch_rows", 1000, "generation", target)
	start := time.Now()
	r := &recoder{c: c, source: source, target: target, sourceGen: st.generation, descriptions: az.cfg.EncryptDescriptions,
		cur: map[string]*cipher.ClientCipher{}, old: map[string]*cipher.ClientCipher{}, v1: map[string]*cipher.ClientCipher{}}
	if r.owners, err = az.auditOwners(ctx, db); err != nil {
		return false, err
	}
	if rotating {
		// Clients made while the pass runs read values under either key;
		// they are dropped when it ends, so later ones use one form.
		az.cipher, az.generation, az.previous, az.previousGen = c, target, source, st.generation
		defer func() {
			az.previous = nil
			az.clients.Range(func(k string, cl *Client) bool {
				cl.drop()
				az.clients.Delete(k)
				return true
			})
		}()
	}
	marker := c.ForColumn([]byte("rolegate/reencode"), "progress", target)
	n, err := storage.Reencode(ctx, db, storage.ReencodeOptions{
		Task:   "generation:" + strconv.Itoa(target),
		Seal:   marker.Encrypt,
		Unseal: marker.Decrypt,
		Done:   cipher.GenerationPrefix(target),
		Recode: r.recode,
		Log:    az.log.Info,
		AfterBatch: func(batch int) error {
			if reencodeHook != nil {
				return reencodeHook(az, batch)
			}
			return nil
		},
	})
	if err != nil {
		return false, err
	}
	if rotating {
		if err := loginx.ResealSecret(ctx, db, source, c); err != nil {
			return false, err
		}
	}
	// Done: the key check value moves to c, with its generation, and the
	// format is current.
	for _, kv := range [][2]string{{settingCipherCheck, c.CheckValue()}, {settingCipherGeneration, strconv.Itoa(target)},
		{settingCipherFormat, cipherFormat}} {
		if err := setSetting(ctx, db, kv[0], kv[1]); err != nil {
			return false, err
		}
	}
	secs := time.Since(start).Seconds()
	az.log.Info("encryption: "+what+" done", "rows_changed", n, "seconds", fmt.Sprintf("%.2f", secs),
		"rows_per_second", int64(float64(n)/max(secs, 1e-9)))
	return n > 0, nil
}

func setSetting(ctx context.Context, db bun.IDB, key, value string) error {
	_, err := db.NewRaw(`INSERT INTO rolegate_settings (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value).Exec(ctx)
	return storage.Classify(err)
}

// recoder re-encodes the values of a conversion or rotation: plain names,
// values of the unbound format 1 (under source), format-2 values under
// source, into format 2 under c. Ciphers are derived once per namespace
// and column.
type recoder struct {
	c, source         *cipher.Cipher
	target, sourceGen int  // generations written, and of the values under source (0: none)
	descriptions      bool // AUTH_ENCRYPT_DESCRIPTIONS: plain descriptions are encrypted too
	cur, old          map[string]*cipher.ClientCipher
	v1                map[string]*cipher.ClientCipher
	owners            map[string]string // audit fingerprint -> namespace
}

func cached(m map[string]*cipher.ClientCipher, key string, make func() *cipher.ClientCipher) *cipher.ClientCipher {
	if len(m) > 4096 {
		clear(m)
	}
	cc, ok := m[key]
	if !ok {
		cc = make()
		m[key] = cc
	}
	return cc
}

func (r *recoder) recode(owner, kind, stored string) (string, bool, error) {
	if kind == storage.KindAudit {
		v := r.recodeAudit(owner, stored)
		return v, v != stored, nil
	}
	if kind == storage.KindDescription && !r.descriptions && !cipher.IsEncrypted(stored) {
		return stored, false, nil // plain descriptions stay plain
	}
	v, err := r.value(owner, cipher.Column(kind), stored)
	return v, err == nil && v != stored, err
}

// value re-encodes one stored value of a column of namespace ns under r.c:
// a plain value, one of format 1 under r.source, or one of format 2 under
// r.source; one under r.c already is returned as it is.
func (r *recoder) value(ns string, col cipher.Column, stored string) (string, error) {
	if strings.HasPrefix(stored, cipher.GenerationPrefix(r.target)) {
		return stored, nil
	}
	raw, err := hex.DecodeString(ns)
	if err != nil {
		return "", fmt.Errorf("namespace is not hex")
	}
	key := string(col) + "/" + ns
	var p string
	switch g, v2 := cipher.GenerationOf(stored); {
	case v2 && g == r.sourceGen:
		p, err = cached(r.old, key, func() *cipher.ClientCipher { return r.source.ForColumn(raw, col, g) }).Decrypt(stored)
	case v2:
		return "", cipher.ErrOtherKey
	case strings.HasPrefix(stored, cipher.Prefix):
		p, err = cached(r.v1, ns, func() *cipher.ClientCipher { return r.source.ForClient(raw) }).Decrypt(stored)
	default:
		p = stored // plain
	}
	if err != nil {
		return "", err
	}
	return cached(r.cur, key, func() *cipher.ClientCipher { return r.c.ForColumn(raw, col, r.target) }).Encrypt(p), nil
}

// redacted replaces, in an audit record, a plain name whose client is not
// known (so it cannot be encrypted under the client's subkeys).
const redacted = "[redacted]"

// recodeAudit re-encodes the user and permission names in an audit
// record's resource, by the shapes rolegate writes: permission:ROLE/NAME,
// permission:NAME, membership:USER/ROLE[@SCOPE], user:USER and
// user:USER/NAME. Role and scope names are plain by design. A resource of
// another shape, or with more parts than its shape has (an invalid name
// holding a '/', refused), has its parts after the kind redacted, as has a
// plain name of a client no namespace maps to. A value that does not
// decrypt is left as it is: it is not plaintext.
func (r *recoder) recodeAudit(fp, resource string) string {
	kind, rest, ok := strings.Cut(resource, ":")
	if !ok {
		return resource
	}
	toks := auditTokens(rest)
	var cols []cipher.Column
	switch {
	case kind == "permission" && len(toks) == 1:
		cols = []cipher.Column{cipher.ColumnPermission}
	case kind == "permission" && len(toks) == 2:
		cols = []cipher.Column{"", cipher.ColumnPermission}
	case kind == "membership" && len(toks) >= 2:
		cols = []cipher.Column{cipher.ColumnUser} // the rest: the role and scope, plain
	case kind == "user" && len(toks) == 1:
		cols = []cipher.Column{cipher.ColumnUser}
	case kind == "user" && len(toks) == 2:
		cols = []cipher.Column{cipher.ColumnUser, cipher.ColumnPermission}
	case kind == "permission", kind == "membership", kind == "user":
		if cipher.IsEncrypted(rest) {
			return resource
		}
		return kind + ":" + redacted
	default:
		return resource
	}
	ns, known := r.owners[fp]
	for i, col := range cols {
		if col == "" || toks[i] == "" || toks[i] == redacted {
			continue
		}
		switch v, err := r.value(ns, col, toks[i]); {
		case !known && !cipher.IsEncrypted(toks[i]):
			toks[i] = redacted
		case known && err == nil:
			toks[i] = v
		}
	}
	return kind + ":" + strings.Join(toks, "/")
}

// auditTokens splits the '/'-separated parts of a resource, keeping an
// encrypted value ("/e1/...", "/e2<kid>/...") whole.
func auditTokens(s string) []string {
	var out []string
	for {
		n := 0
		if pre := encryptedTokenPrefix(s); pre > 0 {
			n = pre
		}
		if i := strings.IndexByte(s[n:], '/'); i >= 0 {
			n += i
		} else {
			n = len(s)
		}
		out = append(out, s[:n])
		if n == len(s) {
			return out
		}
		s = s[n+1:]
	}
}

func encryptedTokenPrefix(s string) int {
	if strings.HasPrefix(s, cipher.Prefix) {
		return len(cipher.Prefix)
	}
	if g, ok := cipher.GenerationOf(s); ok {
		return len(cipher.GenerationPrefix(g))
	}
	return 0
}

// auditOwners maps the client fingerprints of audit records to the
// namespaces that have data in the store.
func (az *Authz) auditOwners(ctx context.Context, db bun.IDB) (map[string]string, error) {
	var nss []string
	if err := db.NewRaw(`SELECT ns FROM rolegate_revisions UNION SELECT ns FROM rolegate_roles`).Scan(ctx, &nss); err != nil {
		return nil, storage.Classify(err)
	}
	out := make(map[string]string, len(nss))
	for _, ns := range nss {
		out[az.fingerprint(ns)] = ns
	}
	return out, nil
}

// rotatingCodec reads values under the new key or the previous one while a
// rotation runs; lookups match both stored forms, writes use the new key.
type rotatingCodec struct{ cur, prev *memoCodec }

var _ storage.FormsCodec = rotatingCodec{}

func (r rotatingCodec) Encrypt(p string) string { return r.cur.Encrypt(p) }

func (r rotatingCodec) Decrypt(stored string) (string, error) {
	p, err := r.cur.Decrypt(stored)
	// Only a value of the previous key's format goes to it (a format-1
	// cipher would pass anything else through as plaintext).
	if errors.Is(err, cipher.ErrOtherKey) || err != nil && strings.HasPrefix(stored, cipher.Prefix) {
		return r.prev.Decrypt(stored)
	}
	return p, err
}

func (r rotatingCodec) Forms(p string) []string { return []string{r.cur.Encrypt(p), r.prev.Encrypt(p)} }

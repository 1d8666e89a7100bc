package keyring

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

	"github.com/rolegate/rolegate/loginx/loginapi"
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

// ReencodeHook, when set (tests), runs after each committed batch of a
// conversion or rotation; an error stops the pass there, as a crash would.
var ReencodeHook func(k *Keys, ctx context.Context, batch int) error

// The rotation lease (storage.TryLease): one process runs the rotation
// pass at a time. The holder renews it after every batch; a process
// serving with both keys tries to take it every RotationRetry, so a pass
// whose process died resumes within rotationLeaseTTL plus that.
const (
	settingRotationLease = "cipher_rotation_lease"
	rotationLeaseTTL     = time.Minute
)

// RotationRetry is how often a process serving with both keys tries to
// take the rotation lease (a variable for tests).
var RotationRetry = 10 * time.Second

// init derives the keys and brings the store to the current
// format under AUTH_ENCRYPTION_KEY. It converts plain names and values of
// the earlier, unbound format in one resumable pass under the migration
// lock, before Open returns. A rotation (the store under
// AUTH_ENCRYPTION_KEY_PREVIOUS, or being moved from it) only records the
// new key for writers under the migration lock; the pass itself runs in
// the background (startRotation) while this process serves with both
// keys. A start with a key the store is not (and is not being moved to)
// under is refused.
func (k *Keys) init(ctx context.Context) error {
	c, err := k.openCipher(ctx, k.cfg.Key)
	if err != nil {
		return err
	}
	var prev *cipher.Cipher
	if k.cfg.Previous != "" {
		if prev, err = k.openCipher(ctx, k.cfg.Previous); err != nil {
			return fmt.Errorf("%w (AUTH_ENCRYPTION_KEY_PREVIOUS)", err)
		}
	}
	st, err := readCipherState(ctx, k.db, c, prev)
	if err != nil {
		return err
	}
	switch {
	case st.done(c):
		if prev != nil && prev.CheckValue() != c.CheckValue() {
			k.log.Info("encryption: the store is under AUTH_ENCRYPTION_KEY; AUTH_ENCRYPTION_KEY_PREVIOUS is no longer needed")
		}
	case st.rotating(c):
		var p *reencodePlan
		err := storage.WithCleanRewrite(ctx, k.db, true, nil, func(ctx context.Context, db bun.IDB) (bool, error) {
			var err error
			if p, err = k.prepareReencode(ctx, db, c, prev, true); err != nil || p == nil {
				return false, err
			}
			// The session secret moves now: the login service opens it
			// with the new key.
			return false, loginapi.ResealSecret(ctx, db, p.source, c)
		})
		if err != nil {
			return fmt.Errorf("authz: encryption: %w", err)
		}
		if p != nil && p.rotating {
			// Clients read values under either key (and look up both
			// stored forms) from here on, also after the pass ends, until
			// a restart with the new key alone.
			k.cipher, k.generation, k.previous, k.previousGen = c, p.target, p.source, p.sourceGen
			k.startRotation(c, prev)
			return nil
		}
		if st, err = readCipherState(ctx, k.db, c, prev); err != nil {
			return err
		}
	default:
		err := storage.WithCleanRewrite(ctx, k.db, true, storage.EncryptedTables(), func(ctx context.Context, db bun.IDB) (bool, error) {
			p, err := k.prepareReencode(ctx, db, c, prev, true)
			if err != nil || p == nil {
				return false, err
			}
			return k.runReencode(ctx, db, c, p, nil)
		})
		if err != nil {
			return fmt.Errorf("authz: encryption: %w", err)
		}
		if st, err = readCipherState(ctx, k.db, c, prev); err != nil {
			return err
		}
	}
	k.cipher, k.generation = c, st.generation
	return nil
}

// startRotation runs the rotation pass in the background: it takes the
// rotation lease (trying again every RotationRetry while another process
// has it, or after a pass that failed), runs the resumable pass, and
// stops once the store is under c. Close stops it between batches; the
// next start (or another replica's next try) resumes it.
func (k *Keys) startRotation(c, prev *cipher.Cipher) {
	holder, err := randomHex()
	if err != nil {
		k.log.Error("encryption: rotation: " + err.Error())
		return
	}
	holder = holder[:16]
	k.goBackground(func(ctx context.Context) {
		for first := true; ; first = false {
			done, err := k.tryRotation(ctx, c, prev, holder)
			switch {
			case done || ctx.Err() != nil:
				return
			case err != nil:
				k.log.Warn("encryption: rotation pass stopped; it resumes at the next try", "err", err.Error(),
					"retry_in", RotationRetry.String())
			case first:
				k.log.Info("encryption: another process is rotating the key; serving with both keys meanwhile")
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(RotationRetry):
			}
		}
	})
}

// tryRotation runs the rotation pass if the store still needs it and the
// lease is free. It reports whether the store is under c.
func (k *Keys) tryRotation(ctx context.Context, c, prev *cipher.Cipher, holder string) (bool, error) {
	st, err := readCipherState(ctx, k.db, c, prev)
	if err != nil || st.done(c) {
		return err == nil, err
	}
	ok, err := storage.TryLease(ctx, k.db, settingRotationLease, holder, rotationLeaseTTL)
	if err != nil || !ok {
		return false, err
	}
	defer func() {
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_, _ = storage.TryLease(uctx, k.db, settingRotationLease, holder, 0)
	}()
	renew := func() error {
		switch ok, err := storage.TryLease(ctx, k.db, settingRotationLease, holder, rotationLeaseTTL); {
		case err != nil:
			return err
		case !ok:
			return errors.New("the rotation lease was lost to another process")
		}
		return nil
	}
	done := false
	err = storage.WithCleanRewrite(ctx, k.db, false, storage.EncryptedTables(), func(ctx context.Context, db bun.IDB) (bool, error) {
		p, err := k.prepareReencode(ctx, db, c, prev, false)
		if err != nil || p == nil {
			done = err == nil
			return false, err
		}
		changed, err := k.runReencode(ctx, db, c, p, renew)
		done = err == nil
		if err == nil && changed {
			err = renew() // before the tables are rebuilt
		}
		return changed, err
	})
	return done && err == nil, err
}

// reencodePlan is what a conversion or rotation pass does: from the
// values under source (generation sourceGen) to c at target.
type reencodePlan struct {
	source            *cipher.Cipher
	target, sourceGen int
	rotating          bool
}

// prepareReencode reads the state (another process may have finished the
// pass meanwhile: nil, nil) and plans the pass. With record, it records
// the key writers must use and waits for the writes already past that
// check (the caller holds the migration lock).
func (k *Keys) prepareReencode(ctx context.Context, db bun.IDB, c, prev *cipher.Cipher, record bool) (*reencodePlan, error) {
	st, err := readCipherState(ctx, db, c, prev)
	if err != nil || st.done(c) {
		return nil, err
	}
	// The key the store's values are under now: c (a plain store, one of
	// the unbound format, or a pass resumed), or prev (a rotation).
	p := &reencodePlan{source: c, sourceGen: st.generation, rotating: st.rotating(c)}
	if p.rotating {
		p.source = prev
	}
	p.target = st.target(c, p.rotating)
	if !record {
		return p, nil
	}
	// From here on, writers without c are refused (storage.RecordChange).
	if err := setSetting(ctx, db, storage.SettingCipherWriter, writerValue(c, p.target)); err != nil {
		return nil, err
	}
	return p, storage.WaitForWriters(ctx, db)
}

// runReencode runs the pass p planned and, when it completes, moves the
// key check value, the generation and the format to c. It reports
// whether anything was rewritten. renew, when set, runs after each batch
// (the rotation lease).
func (k *Keys) runReencode(ctx context.Context, db bun.IDB, c *cipher.Cipher, p *reencodePlan, renew func() error) (bool, error) {
	what, how := "converting plain and unbound values", " under the migration lock"
	if p.rotating {
		what, how = "re-encrypting under the new key (rotation)", " in the background, serving with both keys"
	}
	k.log.Info("encryption: "+what+how, "batch_rows", 1000, "generation", p.target)
	start := time.Now()
	r := &recoder{c: c, source: p.source, target: p.target, sourceGen: p.sourceGen, descriptions: k.cfg.EncryptDescriptions,
		cur: map[string]*cipher.ClientCipher{}, old: map[string]*cipher.ClientCipher{}, v1: map[string]*cipher.ClientCipher{}}
	var err error
	if r.owners, err = k.auditOwners(ctx, db); err != nil {
		return false, err
	}
	marker := c.ForColumn([]byte("rolegate/reencode"), "progress", p.target)
	n, err := storage.Reencode(ctx, db, storage.ReencodeOptions{
		Task:   "generation:" + strconv.Itoa(p.target),
		Seal:   marker.Encrypt,
		Unseal: marker.Decrypt,
		Done:   cipher.GenerationPrefix(p.target),
		Recode: r.recode,
		Log:    k.log.Info,
		AfterBatch: func(batch int) error {
			if renew != nil {
				if err := renew(); err != nil {
					return err
				}
			}
			if ReencodeHook != nil {
				return ReencodeHook(k, ctx, batch)
			}
			return nil
		},
	})
	if err != nil {
		return false, err
	}
	if p.rotating {
		if err := loginapi.ResealSecret(ctx, db, p.source, c); err != nil {
			return false, err
		}
	}
	// Done: the key check value moves to c, with its generation, and the
	// format is current.
	for _, kv := range [][2]string{{settingCipherCheck, c.CheckValue()}, {settingCipherGeneration, strconv.Itoa(p.target)},
		{settingCipherFormat, cipherFormat}} {
		if err := setSetting(ctx, db, kv[0], kv[1]); err != nil {
			return false, err
		}
	}
	secs := time.Since(start).Seconds()
	k.log.Info("encryption: "+what+" done", "rows_changed", n, "seconds", fmt.Sprintf("%.2f", secs),
		"rows_per_second", int64(float64(n)/max(secs, 1e-9)))
	return n > 0, nil
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

// rotating: the store is under another key than c (a rotation to c, or
// one cut off, which readCipherState only lets through with the previous
// key).
func (st cipherState) rotating(c *cipher.Cipher) bool {
	return st.check != "" && !hmac.Equal([]byte(st.check), []byte(c.CheckValue()))
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
	if kind == storage.KindActor {
		// A change feed entry's actor: "user:" and a stored name, or a
		// name of no one (a key's digest, library), left as it is.
		name, ok := strings.CutPrefix(stored, storage.ActorUserPrefix)
		if !ok || name == "" {
			return stored, false, nil
		}
		v, err := r.value(owner, cipher.ColumnUser, name)
		return storage.ActorUserPrefix + v, err == nil && v != name, err
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
func (k *Keys) auditOwners(ctx context.Context, db bun.IDB) (map[string]string, error) {
	var nss []string
	if err := db.NewRaw(`SELECT ns FROM rolegate_revisions UNION SELECT ns FROM rolegate_roles`).Scan(ctx, &nss); err != nil {
		return nil, storage.Classify(err)
	}
	out := make(map[string]string, len(nss))
	for _, ns := range nss {
		out[k.fingerprint(ns)] = ns
	}
	return out, nil
}

// rotatingCodec reads values under the new key or the previous one in a
// process that started with both keys on a store being rotated (until it
// restarts, also after the background pass ends); lookups match both
// stored forms, writes use the new key.
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

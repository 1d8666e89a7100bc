#!/usr/bin/env python3
"""Generate vectors.json, the known-answer vectors of package storage/cipher.

The vectors are computed WITHOUT any of rolegate's Go code, from the
construction written in ../doc.go:

  * PBKDF2-HMAC-SHA256, HKDF-SHA256 (RFC 5869) and HMAC-SHA256 with Python's
    standard hashlib and hmac modules (HKDF written out below from the RFC),
    each cross-checked against the OpenSSL command line
    (`openssl kdf PBKDF2`, `openssl kdf HKDF`, `openssl mac HMAC`);
  * AES-256-CTR with `openssl enc -aes-256-ctr -K <hex> -iv <hex> -nosalt`
    (and, when the Python `cryptography` package is installed, cross-checked
    against it too);
  * base64url without padding with Python's base64 module.

Run from this directory:  python3 gen_vectors.py > vectors.json
Produced with Python 3.11.7 and OpenSSL 3.0.19.
"""
import base64
import hashlib
import hmac
import json
import subprocess

SALT = b"rolegate/cipher/v1"
ITERATIONS = 100_000
AES_LABEL = b"rolegate/cipher/v1/aes"
MAC_LABEL = b"rolegate/cipher/v1/mac"
CHECK_LABEL = b"rolegate/cipher/v1/check"
PREFIX = "/e1/"

PASSPHRASES = [
    "correct horse battery staple",
    "pässwörd mit Ümlauten 🔑",
]
CLIENT_KEYS = [  # UUID v4, normalised to lower case; namespace = SHA-256 of it
    "3f2b8c1e-9a4d-4e7b-8c2f-1d5e6a7b8c9d",
    "c0ffee00-1234-4abc-9def-0123456789ab",
]
PLAINTEXTS = [
    "alice",
    "edit",
    "notes:write",
    "Can edit notes, and delete them.",
    "Zoë Åström",
    "日本語のユーザー",
    "👩‍💻 dev-ops",
    "x" * 128,                   # 128 ASCII characters, the longest name
    "ü" * 64 + "名" * 64,        # 128 multi-byte characters (320 bytes)
    "",                          # not a valid name, but Encrypt accepts it
]


def openssl(args, data=b""):
    return subprocess.run(["openssl", *args], input=data, check=True,
                          capture_output=True).stdout


def hkdf_sha256(ikm, salt, info, length):
    """RFC 5869, section 2."""
    prk = hmac.new(salt or b"\0" * 32, ikm, hashlib.sha256).digest()
    okm, t, i = b"", b"", 1
    while len(okm) < length:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha256).digest()
        okm += t
        i += 1
    return okm[:length]


def pbkdf2(passphrase):
    dk = hashlib.pbkdf2_hmac("sha256", passphrase.encode(), SALT, ITERATIONS, 64)
    ref = openssl(["kdf", "-binary", "-keylen", "64",
                   "-kdfopt", "digest:SHA256",
                   "-kdfopt", "hexpass:" + passphrase.encode().hex(),
                   "-kdfopt", "hexsalt:" + SALT.hex(),
                   "-kdfopt", "iter:%d" % ITERATIONS, "PBKDF2"])
    assert dk == ref, "PBKDF2: python and openssl disagree"
    return dk[:32], dk[32:]


def hkdf(master, label, namespace):
    info = label + namespace
    key = hkdf_sha256(master, b"", info, 32)
    ref = openssl(["kdf", "-binary", "-keylen", "32",
                   "-kdfopt", "digest:SHA256",
                   "-kdfopt", "hexkey:" + master.hex(),
                   "-kdfopt", "hexinfo:" + info.hex(), "HKDF"])
    assert key == ref, "HKDF: python and openssl disagree"
    return key


def hmac_sha256(key, msg):
    mac = hmac.new(key, msg, hashlib.sha256).digest()
    ref = openssl(["mac", "-binary", "-digest", "SHA256",
                   "-macopt", "hexkey:" + key.hex(), "HMAC"], msg)
    assert mac == ref, "HMAC: python and openssl disagree"
    return mac


def aes_ctr(key, iv, data):
    ct = openssl(["enc", "-aes-256-ctr", "-K", key.hex(), "-iv", iv.hex(),
                  "-nosalt"], data)
    try:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    except ImportError:
        return ct
    enc = Cipher(algorithms.AES(key), modes.CTR(iv)).encryptor()
    assert enc.update(data) + enc.finalize() == ct, "AES-CTR: openssl and cryptography disagree"
    return ct


def encrypt(aes_key, mac_key, plaintext):
    p = plaintext.encode()
    iv = hmac_sha256(mac_key, p)[:16]
    raw = iv + aes_ctr(aes_key, iv, p)
    return PREFIX + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def main():
    out = {
        "comment": __doc__.strip().splitlines(),
        "salt": SALT.decode(),
        "iterations": ITERATIONS,
        "prefix": PREFIX,
        "passphrases": [],
    }
    for pw in PASSPHRASES:
        aes_key, mac_key = pbkdf2(pw)
        entry = {
            "passphrase": pw,
            "aes_key": aes_key.hex(),
            "mac_key": mac_key.hex(),
            "check_value": hmac_sha256(mac_key, CHECK_LABEL).hex(),
            "clients": [],
        }
        for ck in CLIENT_KEYS:
            ns = hashlib.sha256(ck.encode()).digest()
            c_aes, c_mac = hkdf(aes_key, AES_LABEL, ns), hkdf(mac_key, MAC_LABEL, ns)
            entry["clients"].append({
                "client_key": ck,
                "namespace": ns.hex(),
                "aes_key": c_aes.hex(),
                "mac_key": c_mac.hex(),
                "values": [{"plaintext": p, "stored": encrypt(c_aes, c_mac, p)}
                           for p in PLAINTEXTS],
            })
        out["passphrases"].append(entry)
    print(json.dumps(out, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()

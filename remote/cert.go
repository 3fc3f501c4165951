package remote

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"

	"gomoku-arena/internal/durable"
)

// Certificate loads the organizer's certificate and key when certFile is
// given, else the event folder's own, generated (self-signed, ECDSA P-256,
// ten years) the first time and kept so that clients' pins survive a
// restart. The fingerprint is the hex SHA-256 of the leaf certificate,
// which `arena connect -fingerprint` pins.
func Certificate(folder, certFile, keyFile string) (tls.Certificate, string, error) {
	var c tls.Certificate
	var err error
	if certFile == "" {
		// The event folder's own: remote/ and the files are reached
		// through no link (the output folder may be shared), and the key
		// is never written where a link points.
		const cert, key = "remote/cert.pem", "remote/key.pem"
		if _, err := os.Lstat(filepath.Join(folder, cert)); errors.Is(err, fs.ErrNotExist) {
			if err := generate(folder, cert, key); err != nil {
				return tls.Certificate{}, "", err
			}
		}
		var cb, kb []byte
		if cb, err = durable.ReadRegular(folder, cert, 1<<20); err == nil {
			kb, err = durable.ReadRegular(folder, key, 1<<20)
		}
		if err == nil {
			c, err = tls.X509KeyPair(cb, kb)
		}
	} else {
		c, err = tls.LoadX509KeyPair(certFile, keyFile)
	}
	if err != nil {
		return tls.Certificate{}, "", fmt.Errorf("certificate: %w", err)
	}
	return c, Fingerprint(c.Certificate[0]), nil
}

// Fingerprint is the hex SHA-256 of a DER certificate.
func Fingerprint(der []byte) string {
	s := sha256.Sum256(der)
	return hex.EncodeToString(s[:])
}

// generate makes a certificate and its key, the files certRel and keyRel
// inside folder.
func generate(folder, certRel, keyRel string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	host, _ := os.Hostname()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "gomoku-arena event"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().AddDate(10, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	if host != "" {
		tmpl.DNSNames = append(tmpl.DNSNames, host)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	kb, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(folder, 0o755); err != nil { // the output folder, as named
		return err
	}
	if err := durable.WriteFileIn(folder, keyRel, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		return err
	}
	return durable.WriteFileIn(folder, certRel, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
}

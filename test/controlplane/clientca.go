package main

// Client certificates for the plugin's authentication tests: kube-apiserver gets
// --client-ca-file=<dir>/client-ca.crt, and the state dir holds
//
//	client.crt, client.key      CN=evtimeline-cert-user, O=system:masters, signed by that CA
//	stranger.crt, stranger.key  the same subject, signed by a CA the apiserver does not trust
//
// (Node.js cannot sign certificates, so the tests take these instead of making their own.)

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"os"
	"path/filepath"
	"time"
)

const certUser = "evtimeline-cert-user"

type signer struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

func newCA(name string) (*signer, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := serialNumber()
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(7 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	return &signer{cert: cert, key: key}, der, err
}

func (ca *signer) writeClientCert(dir, name string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	serial, err := serialNumber()
	if err != nil {
		return err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: certUser, Organization: []string{"system:masters"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(7 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return err
	}
	if err := writePEM(filepath.Join(dir, name+".crt"), "CERTIFICATE", der, 0o644); err != nil {
		return err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	return writePEM(filepath.Join(dir, name+".key"), "PRIVATE KEY", keyDER, 0o600)
}

// writeClientPKI writes the client CA and both client certificates into dir and returns the CA's path.
func writeClientPKI(dir string) (string, error) {
	ca, caDER, err := newCA("evtimeline-client-ca")
	if err != nil {
		return "", err
	}
	caFile := filepath.Join(dir, "client-ca.crt")
	if err := writePEM(caFile, "CERTIFICATE", caDER, 0o644); err != nil {
		return "", err
	}
	if err := ca.writeClientCert(dir, "client"); err != nil {
		return "", err
	}
	stranger, _, err := newCA("not-trusted-by-the-apiserver")
	if err != nil {
		return "", err
	}
	if err := stranger.writeClientCert(dir, "stranger"); err != nil {
		return "", err
	}
	return caFile, os.Chmod(caFile, 0o644)
}

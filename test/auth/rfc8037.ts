/** RFC 8037 Appendix A.1: the Ed25519 private key used by the A.4 signing example. */
export const RFC8037_A1_PRIVATE_JWK = {
  kty: 'OKP',
  crv: 'Ed25519',
  d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
} as const;

/** RFC 8037 Appendix A.4: payload, protected header and the resulting JWS. */
export const RFC8037_A4 = {
  payload: 'Example of Ed25519 signing',
  protectedHeader: 'eyJhbGciOiJFZERTQSJ9',
  encodedPayload: 'RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc',
  signature: 'hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg',
} as const;

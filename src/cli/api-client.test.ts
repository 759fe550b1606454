import { describe, expect, it } from 'vitest';
import { serverUrl } from './api-client.ts';

describe('LEADGATE_URL', () => {
  it('When it is a server’s base URL (with or without /v1 and a trailing slash), then that base', () => {
    expect(serverUrl({})).toBe('http://127.0.0.1:3000');
    expect(serverUrl({ LEADGATE_URL: 'https://leads.example.com/v1/' })).toBe('https://leads.example.com');
  });

  it.each([
    ['a user and password', 'https://ops:s3cret@leads.example.com', /must not carry a user or password/],
    ['no URL at all', 'https://ops:s3cret@leads example.com', /is not a URL/],
    ['another scheme', 'ftp://ops:s3cret@leads.example.com', /must start with http/],
  ])(
    'When it has %s, then it is refused, the URL never quoted (it may hold a password)',
    (_label, url, reason) => {
      let message = '';
      try {
        serverUrl({ LEADGATE_URL: url });
      } catch (err) {
        message = String(err);
      }
      expect(message).toMatch(reason);
      expect(message).not.toContain('s3cret');
    },
  );
});

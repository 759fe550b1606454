import { describe, expect, it } from 'vitest';
import { createCustomFields } from './custom-fields.ts';

describe('createCustomFields', () => {
  it('When keys collide, then later values get suffixed keys and nothing is overwritten', () => {
    const custom = createCustomFields();
    expect(custom.put('promo', 'sender')).toBe('promo');
    expect(custom.put('promo', 'body')).toBe('promo (body)');
    expect(custom.put('promo', 'again')).toBe('promo (body 2)');
    expect(custom.fields).toEqual({ promo: 'sender', 'promo (body)': 'body', 'promo (body 2)': 'again' });
  });

  it('When the key is __proto__, then it is stored as a plain own key', () => {
    const custom = createCustomFields();
    custom.put('__proto__', { polluted: true });
    expect(Object.keys(custom.fields)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(custom.fields)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

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

  it('When a suffixed name was itself sent, then the next free suffix is found, and many repeats keep counting', () => {
    const custom = createCustomFields();
    custom.put('k (body)', 'sent with that name');
    expect(['k', 'k', 'k', 'k'].map((key) => custom.put(key, 1))).toEqual([
      'k',
      'k (body 2)',
      'k (body 3)',
      'k (body 4)',
    ]);
    const many = createCustomFields();
    for (let i = 0; i < 20_000; i += 1) many.put('q', i);
    expect(many.fields['q (body 19999)']).toBe(19_999);
    expect(Object.keys(many.fields)).toHaveLength(20_000);
  });
});

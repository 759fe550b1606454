import { describe, expect, it } from 'vitest';
import { actionButton } from './components.ts';

describe('actionButton', () => {
  it('When an action is destructive, then its button is drawn as such and asks first (data-confirm, no inline script)', () => {
    const form = actionButton('tok', '/console/sources/1/active', 'Disable', {
      fields: { active: 'false' },
      confirm: 'Disable "Acme"? Its token is refused.',
    }).text;

    expect(form).toContain('<input type="hidden" name="_csrf" value="tok" />');
    expect(form).toContain('<input type="hidden" name="active" value="false" />');
    expect(form).toContain('class="danger" data-confirm="Disable &quot;Acme&quot;? Its token is refused."');
    expect(form).not.toMatch(/onclick|<script/i);
  });

  it('When an action is not destructive, then its button is a plain one', () => {
    expect(actionButton('tok', '/console/deliveries/1/retry', 'Retry now').text).not.toContain(
      'data-confirm',
    );
  });
});

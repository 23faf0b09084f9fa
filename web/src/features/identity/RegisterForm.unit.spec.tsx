// Proves the register form shows the spec's validation messages, sends only valid input, and
// shows the server's answer (field and general messages) while guarding against double submits.
import type { RegisterInput } from '@quern/core/identity';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FormErrors } from '../../ui/formErrors.js';
import { byLabel, byRole, submit, textOf, typeInto, waitFor } from '../../../test/dom.js';
import { render, type Rendered } from '../../../test/renderForTest.js';
import { RegisterForm } from './RegisterForm.js';
import type { RegisterField } from './registerValidation.js';

const valid = {
  Username: 'alice_01',
  'First name': 'Alice',
  'Last name': 'Liddell',
  'E-mail': 'alice@example.com',
  Phone: '+1 555 010 2030',
  Password: 'correct horse',
  'Confirm password': 'correct horse',
};

type OnSubmit = (input: RegisterInput) => Promise<FormErrors<RegisterField> | null>;

let rendered: Rendered | undefined;
afterEach(() => rendered?.unmount());

async function renderForm(onSubmit: OnSubmit = vi.fn<OnSubmit>().mockResolvedValue(null)) {
  rendered = await render(<RegisterForm onSubmit={onSubmit} />, { path: '/register' });
  const { container } = rendered;
  const fill = (values: Partial<typeof valid>) => {
    for (const [label, value] of Object.entries(values)) typeInto(byLabel(container, label), value);
  };
  const form = container.querySelector('form');
  if (!form) throw new Error('no form');
  return { container, fill, send: () => submit(form), onSubmit };
}

describe('RegisterForm validation', () => {
  it('given an empty form, when submitted, then it says all fields are required and sends nothing', async () => {
    const onSubmit = vi.fn<OnSubmit>();
    const { container, send } = await renderForm(onSubmit);
    await send();
    expect(textOf(container)).toContain('All fields are required');
    expect(byLabel(container, 'Username').getAttribute('aria-invalid')).toBe('true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('given one field left blank (spaces only), when submitted, then all fields are required', async () => {
    const onSubmit = vi.fn<OnSubmit>();
    const { container, fill, send } = await renderForm(onSubmit);
    fill({ ...valid, 'Last name': '   ' });
    await send();
    expect(textOf(container)).toContain('All fields are required');
    expect(byLabel(container, 'Last name').getAttribute('aria-invalid')).toBe('true');
    expect(byLabel(container, 'First name').getAttribute('aria-invalid')).toBeNull();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('given a username with a space, when submitted, then the username format message shows', async () => {
    const onSubmit = vi.fn<OnSubmit>();
    const { container, fill, send } = await renderForm(onSubmit);
    fill({ ...valid, Username: 'alice smith' });
    await send();
    expect(textOf(container)).toContain(
      'Invalid username format. Please use combination of numbers, letters and underscore with no space in between.',
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('given different passwords, when submitted, then both passwords must match', async () => {
    const onSubmit = vi.fn<OnSubmit>();
    const { container, fill, send } = await renderForm(onSubmit);
    fill({ ...valid, 'Confirm password': 'correct horsf' });
    await send();
    expect(textOf(container)).toContain('Both password must match');
    expect(byLabel(container, 'Confirm password').getAttribute('aria-invalid')).toBe('true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('given valid input, when submitted, then it sends the registration payload without the confirmation', async () => {
    const onSubmit = vi.fn<OnSubmit>().mockResolvedValue(null);
    const { container, fill, send } = await renderForm(onSubmit);
    fill(valid);
    await send();
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith({
      userName: 'alice_01',
      firstName: 'Alice',
      lastName: 'Liddell',
      email: 'alice@example.com',
      phone: '+15550102030',
      password: 'correct horse',
    });
    expect(container.querySelector('[role="alert"]')).toBeNull();
  });
});

describe('RegisterForm submission', () => {
  it('given a slow server, when submitted twice, then the button is disabled and only one request is sent', async () => {
    let answer: (errors: null) => void = () => {};
    const onSubmit = vi.fn<OnSubmit>(() => new Promise((resolve) => (answer = resolve)));
    const { container, fill, send } = await renderForm(onSubmit);
    fill(valid);
    await send();
    const button = byRole(container, 'button', 'Registering...') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await send();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    answer(null);
    await waitFor(() => expect((byRole(container, 'button', 'Register') as HTMLButtonElement).disabled).toBe(false));
  });

  it('given the server refuses a taken username, then its message shows once, under the username', async () => {
    const onSubmit = vi.fn<OnSubmit>().mockResolvedValue({ form: null, fields: { userName: 'errors:usernameTaken' } });
    const { container, fill, send } = await renderForm(onSubmit);
    fill(valid);
    await send();
    await waitFor(() => expect(container.querySelector('#userName-error')?.textContent).toBe('This username is already taken.'));
    expect(textOf(container).split('This username is already taken.')).toHaveLength(2);
  });

  it('given a general server error, then its message shows above the button', async () => {
    const onSubmit = vi.fn<OnSubmit>().mockResolvedValue({ form: { key: 'errors:tooManyRequests' }, fields: {} });
    const { container, fill, send } = await renderForm(onSubmit);
    fill(valid);
    await send();
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe('Too many requests. Please try again later.'));
  });
});

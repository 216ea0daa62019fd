import { Input } from 'antd';

export interface SixDigitInputProps {
  value?: string;
  /** Called on every keystroke with the digits typed so far (antd's OTP onChange fires only when all are filled). */
  onChange?: (value: string) => void;
  disabled?: boolean;
  autoFocus?: boolean;
  'aria-label'?: string;
  onEnter?: () => void;
}

/** Six masked digit cells for a pay password; anything but a digit is dropped. */
export default function SixDigitInput({ value = '', onChange, disabled, autoFocus, onEnter, ...rest }: SixDigitInputProps) {
  return (
    <div
      className="coalx-six-digits"
      onKeyDown={(event) => {
        if (event.key === 'Enter' && value.length === 6) onEnter?.();
      }}
    >
      <Input.OTP
        length={6}
        mask="●"
        inputMode="numeric"
        autoFocus={autoFocus}
        aria-label={rest['aria-label'] ?? '支付密码'}
        disabled={disabled}
        value={value}
        formatter={(text) => text.replace(/\D/g, '')}
        onInput={(cells) => onChange?.(cells.join('').replace(/\D/g, ''))}
      />
    </div>
  );
}

import { InputNumber } from 'antd';

/** Yuan with at most 2 decimals, kept as a string (stringMode) so yuanToFen converts it exactly. */
export default function AmountInput(props: { value?: string; onChange?: (value: string | undefined) => void; placeholder?: string; disabled?: boolean }) {
  return (
    <InputNumber<string>
      stringMode
      min="0"
      precision={2}
      controls={false}
      prefix="¥"
      addonAfter="元"
      style={{ width: '100%' }}
      placeholder={props.placeholder ?? '请输入金额'}
      disabled={props.disabled}
      value={props.value}
      onChange={(value) => props.onChange?.(value ?? undefined)}
      formatter={(value) => {
        if (value === undefined || value === '') return '';
        const [int, dec] = String(value).split('.');
        return `${int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${dec !== undefined ? `.${dec}` : ''}`;
      }}
      parser={(text) => (text ?? '').replace(/[,¥\s]/g, '')}
    />
  );
}

import { useEffect, useState } from 'react';
import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { Alert, Form, Spin, type FormInstance } from 'antd';
import { PRICE_BASIS_TEXT, formatPrice, monthText } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { previewQuery, type OfferFormValues } from '@/lib/long-term';
import { LONG_TERM_KEYS, previewPrice, type MonthPriceAnswer } from '@/services/longTerm';

/** The preview waits for the typing to pause before asking the server. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, ms]);
  return settled;
}

/** The basis of one month's price: base + float from the average of the terms, or the fixed price; and the range. */
export function MonthPriceBasis({ price }: { price: MonthPriceAnswer }) {
  const index = price.basis !== 'fixed';
  return (
    <div className="coalx-lt-basis">
      <div>
        依据：{PRICE_BASIS_TEXT[price.basis]}
        {index && price.basis !== 'no_index' ? `（取价月 ${monthText(price.sourceMonth)}）` : ''}
      </div>
      {index ? (
        <div className="coalx-num">
          基准价 {formatPrice(price.basePriceFen)} {price.floatFen < 0 ? '−' : '+'} 浮动价 {formatPrice(Math.abs(price.floatFen))}
          {price.averageFen !== null ? `；指数均值 ${formatPrice(price.averageFen)}` : ''}
        </div>
      ) : null}
      {price.terms.length > 0 ? (
        <ul className="coalx-lt-terms">
          {price.terms.map((t) => (
            <li key={`${t.label}-${t.quoteDate}`} className="coalx-num">
              {t.label} · {t.quoteDate} · {formatPrice(t.priceFen)}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="coalx-lt-sub coalx-num">
        合理区间 {formatPrice(price.rangeMinFen)} – {formatPrice(price.rangeMaxFen)}
      </div>
    </div>
  );
}

/**
 * 按现有指数试算: the first month's price as the index terms published so far would make it (GET pricePreview), live
 * as the pricing is typed, with the warning when it falls outside the reasonable range.
 */
export default function PricePreview<R>({ form, toValues }: { form: FormInstance<R>; toValues: (raw: R) => OfferFormValues }) {
  // watched so the preview follows each of them
  Form.useWatch('pricingMode', form);
  Form.useWatch('basePriceYuan', form);
  Form.useWatch('coefficient', form);
  Form.useWatch('referenceYuan', form);
  Form.useWatch('heatFactor', form);
  Form.useWatch('periodStart', form);
  Form.useWatch(['quality', 'qnet'], form);
  const query = useSettled(previewQuery(toValues(form.getFieldsValue(true) as R)), 400);
  const preview = useQuery({
    queryKey: LONG_TERM_KEYS.preview(query ?? { month: '' }),
    queryFn: () => previewPrice(query!),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 30_000,
  });
  const price = query ? preview.data : undefined;

  return (
    <div className="coalx-lt-preview" data-testid="lt-price-preview">
      <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start' }}>
        <div style={{ minWidth: 220 }}>
          <div className="coalx-lt-sub">按现有指数试算{query ? `（${monthText(query.month)}）` : ''}</div>
          <div className="coalx-lt-preview-price" data-testid="lt-preview-price">
            {price ? formatPrice(price.priceFen) : '-'}
            {preview.isFetching ? <Spin size="small" style={{ marginLeft: 8 }} /> : null}
          </div>
        </div>
        <div style={{ flex: 1, minWidth: 0 }}>
          {!query ? (
            <div className="coalx-hint">填写定价与合同开始月份后，按已发布的价格指数试算首月价格。</div>
          ) : preview.isError ? (
            <div className="coalx-hint">{errorMessage(preview.error, '试算失败，请稍后重试')}</div>
          ) : price ? (
            <MonthPriceBasis price={price} />
          ) : null}
        </div>
      </div>
      {price?.warning ? <Alert style={{ marginTop: 8 }} type="warning" showIcon message={price.warning} data-testid="lt-preview-warning" /> : null}
      <div className="coalx-lt-sub" style={{ marginTop: 6 }}>
        试算仅供参考：各月价格在当月第一日按届时已发布的指数确定。
      </div>
    </div>
  );
}

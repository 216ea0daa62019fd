import { useEffect, useRef, useState, type ReactNode } from 'react';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, message, Upload as AntUpload, type UploadFile, type UploadProps as AntUploadProps } from 'antd';
import { MAX_UPLOAD_BYTES } from '@coalx/shared';
import { TOKEN_HEADER } from '@/app/request';
import { session } from '@/app/session';
import { UPLOAD_URL, usePrivateFileUrls } from '@/services/file';
import {
  DEFAULT_ACCEPT,
  DEFAULT_MAX_COUNT,
  fileListToValue,
  fileUrl,
  isAccepted,
  normalizeFileList,
  valueToUrls,
} from './file-list';

export interface UploadProps {
  /** One url (maxCount 1) or a list of urls. */
  value?: string | string[] | null;
  onChange?: (value: string | string[] | undefined) => void;
  accept?: string;
  maxCount?: number;
  /** Private files are readable only with a token (vouchers, licences). */
  visibility?: 'public' | 'private';
  /** 'register': a visitor's registration attachment (images only, private, no sign-in needed). */
  scene?: 'register';
  listType?: AntUploadProps['listType'];
  disabled?: boolean;
  children?: ReactNode;
  /**
   * Another upload address that needs no sign-in (a truck's QR pass: {api}/api/gate-pass/{pass}/photo); no token and
   * no fields are sent with it.
   */
  action?: string;
  /** Opens the phone's rear camera rather than the file picker. */
  camera?: boolean;
}

/** Files made from the value: their addresses are added when shown (`withAddresses`), private ones as signed links. */
function filesFromValue(value: UploadProps['value']): UploadFile[] {
  return valueToUrls(value).map((url, i) => ({
    uid: `value-${i}-${url}`,
    name: url.split('/').pop() ?? url,
    status: 'done',
    response: { code: 0, result: { url } },
  }));
}

/**
 * The list as shown: each uploaded file's link and thumbnail from its display address (usePrivateFileUrls: a
 * private file's is a short-lived signed link, never the token). A thumbnail the browser drew from the picked file
 * itself (data:, blob:) is kept.
 */
function withAddresses(fileList: UploadFile[], addresses: Record<string, string>): UploadFile[] {
  return fileList.map((file) => {
    const key = file.status === 'done' ? fileUrl(file) : undefined;
    if (!key) return file;
    const address = addresses[key] || undefined;
    const localThumb = file.thumbUrl && /^(data|blob):/.test(file.thumbUrl) ? file.thumbUrl : undefined;
    return { ...file, url: address, thumbUrl: localThumb ?? address };
  });
}

function sameUrls(a: UploadProps['value'], b: UploadProps['value']) {
  return valueToUrls(a).join('\n') === valueToUrls(b).join('\n');
}

/**
 * Upload of spec §5: posts field 'file' to {api}/api/common/upload with the token header; accepts .jpg .png .jpeg
 * and one file by default; the list is cut to the last maxCount files; a non-zero answer code shows the server's
 * message and drops the file. Its value is the uploaded url(s), so it works as a Form field.
 */
export default function Upload({
  value,
  onChange,
  accept = DEFAULT_ACCEPT,
  maxCount = DEFAULT_MAX_COUNT,
  visibility = 'public',
  scene,
  listType = 'picture-card',
  disabled,
  children,
  action,
  camera,
}: UploadProps) {
  const [fileList, setFileList] = useState<UploadFile[]>(() => filesFromValue(value));
  const lastEmitted = useRef<UploadProps['value']>(value);

  useEffect(() => {
    if (!sameUrls(value, lastEmitted.current)) {
      lastEmitted.current = value;
      setFileList(filesFromValue(value));
    }
  }, [value]);

  const handleChange: AntUploadProps['onChange'] = ({ fileList: next }) => {
    const { fileList: kept, errors } = normalizeFileList(next, maxCount);
    errors.forEach((text) => message.error(text));
    setFileList(kept);
    const nextValue = fileListToValue(kept, maxCount);
    const settled = kept.every((f) => f.status === 'done');
    if (settled && !sameUrls(nextValue, lastEmitted.current)) {
      lastEmitted.current = nextValue;
      onChange?.(nextValue);
    }
  };

  const beforeUpload: AntUploadProps['beforeUpload'] = (file) => {
    if (!isAccepted(file.name, accept)) {
      message.error(`仅支持 ${accept.split(',').join(' ')} 格式的文件`);
      return AntUpload.LIST_IGNORE;
    }
    if (file.size > MAX_UPLOAD_BYTES) {
      message.error(`文件不能超过 ${Math.round(MAX_UPLOAD_BYTES / 1024 / 1024)} MB`);
      return AntUpload.LIST_IGNORE;
    }
    return true;
  };

  const token = session.token();
  // an upload without an account (a QR pass) cannot open what it stored: the picked file's own thumbnail shows
  const addresses = usePrivateFileUrls(action ? [] : fileList.map(fileUrl), { private: visibility === 'private' });
  const full = fileList.length >= maxCount && maxCount > 1;
  const trigger =
    children ??
    (listType === 'picture-card' || listType === 'picture-circle' ? (
      <div>
        <PlusOutlined />
        <div style={{ marginTop: 8 }}>上传</div>
      </div>
    ) : (
      <Button icon={<UploadOutlined />} disabled={disabled}>
        上传文件
      </Button>
    ));

  return (
    <AntUpload
      name="file"
      action={action ?? UPLOAD_URL}
      headers={token && !action ? { [TOKEN_HEADER]: token } : undefined}
      data={action ? undefined : scene ? { visibility, scene } : { visibility }}
      capture={camera ? 'environment' : undefined}
      accept={accept}
      listType={listType}
      fileList={withAddresses(fileList, addresses)}
      disabled={disabled}
      beforeUpload={beforeUpload}
      onChange={handleChange}
      onPreview={(file) => {
        // a private file's signed link answers as a download (the server's Content-Disposition), a public one opens
        const url = file.url ?? (fileUrl(file) ? addresses[fileUrl(file)!] : '');
        if (url) window.open(url, '_blank', 'noopener');
      }}
    >
      {full || disabled ? null : trigger}
    </AntUpload>
  );
}

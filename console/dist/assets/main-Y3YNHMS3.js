var xe,T,pt,fn,oe,at,dt,mt,Le,ve,de,ft,Oe,We,qe,_n,ke={},Se=[],hn=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,Re=Array.isArray;function ee(e,t){for(var n in t)e[n]=t[n];return e}function He(e){e&&e.parentNode&&e.parentNode.removeChild(e)}function Te(e,t,n){var o,i,r,l={};for(r in t)r=="key"?o=t[r]:r=="ref"?i=t[r]:l[r]=t[r];if(arguments.length>2&&(l.children=arguments.length>3?xe.call(arguments,2):n),typeof e=="function"&&e.defaultProps!=null)for(r in e.defaultProps)l[r]===void 0&&(l[r]=e.defaultProps[r]);return we(e,l,o,i,null)}function we(e,t,n,o,i){var r={type:e,props:t,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:i??++pt,__i:-1,__u:0};return i==null&&T.vnode!=null&&T.vnode(r),r}function Ce(e){return e.children}function me(e,t){this.props=e,this.context=t}function le(e,t){if(t==null)return e.__?le(e.__,e.__i+1):null;for(var n;t<e.__k.length;t++)if((n=e.__k[t])!=null&&n.__e!=null)return n.__e;return typeof e.type=="function"?le(e):null}function $n(e){if(e.__P&&e.__d){var t=e.__v,n=t.__e,o=[],i=[],r=ee({},t);r.__v=t.__v+1,T.vnode&&T.vnode(r),je(e.__P,r,t,e.__n,e.__P.namespaceURI,32&t.__u?[n]:null,o,n??le(t),!!(32&t.__u),i),r.__v=t.__v,r.__.__k[r.__i]=r,gt(o,r,i),t.__e=t.__=null,r.__e!=n&&_t(r)}}function _t(e){if((e=e.__)!=null&&e.__c!=null)return e.__e=e.__c.base=null,e.__k.some(function(t){if(t!=null&&t.__e!=null)return e.__e=e.__c.base=t.__e}),_t(e)}function lt(e){(!e.__d&&(e.__d=!0)&&oe.push(e)&&!Ee.__r++||at!=T.debounceRendering)&&((at=T.debounceRendering)||dt)(Ee)}function Ee(){try{for(var e,t=1;oe.length;)oe.length>t&&oe.sort(mt),e=oe.shift(),t=oe.length,$n(e)}finally{oe.length=Ee.__r=0}}function ht(e,t,n,o,i,r,l,s,u,c,p){var f,a,m,h,$,v,k=o&&o.__k||Se,y=t.length;for(u=bn(n,t,k,u,y),f=0;f<y;f++)(m=n.__k[f])!=null&&(a=m.__i!=-1&&k[m.__i]||ke,m.__i=f,v=je(e,m,a,i,r,l,s,u,c,p),h=m.__e,m.ref&&a.ref!=m.ref&&(a.ref&&Ge(a.ref,null,m),p.push(m.ref,m.__c||h,m)),$==null&&h!=null&&($=h),4&m.__u?(u=$t(m,u,e),a.__e&&(a.__e=null)):typeof m.type=="function"&&v!==void 0?u=v:h&&(u=h.nextSibling),m.__u&=-7);return n.__e=$,u}function bn(e,t,n,o,i){var r,l,s,u,c,p=n.length,f=p,a=0;for(e.__k=new Array(i),r=0;r<i;r++)(l=t[r])!=null&&typeof l!="boolean"&&typeof l!="function"?(typeof l=="string"||typeof l=="number"||typeof l=="bigint"||l.constructor==String?l=e.__k[r]=we(null,l,null,null,null):Re(l)?l=e.__k[r]=we(Ce,{children:l},null,null,null):l.constructor===void 0&&l.__b>0?l=e.__k[r]=we(l.type,l.props,l.key,l.ref?l.ref:null,l.__v):e.__k[r]=l,u=r+a,l.__=e,l.__b=e.__b+1,s=null,(c=l.__i=gn(l,n,u,f))!=-1&&(f--,(s=n[c])&&(s.__u|=2)),s==null||s.__v==null?(c==-1&&(i>p?a--:i<p&&a++),typeof l.type!="function"&&(l.__u|=4)):c!=u&&(c==u-1?a--:c==u+1?a++:(c>u?a--:a++,l.__u|=4))):e.__k[r]=null;if(f)for(r=0;r<p;r++)(s=n[r])!=null&&(2&s.__u)==0&&(s.__e==o&&(o=le(s)),vt(s,s));return o}function $t(e,t,n){var o,i;if(typeof e.type=="function"){for(o=e.__k,i=0;o&&i<o.length;i++)o[i]&&(o[i].__=e,t=$t(o[i],t,n));return t}e.__e!=t&&(t&&e.type&&!t.parentNode&&(t=le(e)),t=n.insertBefore(e.__e,t||null));do t=t&&t.nextSibling;while(t!=null&&t.nodeType==8);return t}function gn(e,t,n,o){var i,r,l,s=e.key,u=e.type,c=t[n],p=c!=null&&(2&c.__u)==0;if(c===null&&s==null||p&&s==c.key&&u==c.type)return n;if(o>(p?1:0)){for(i=n-1,r=n+1;i>=0||r<t.length;)if((c=t[l=i>=0?i--:r++])!=null&&(2&c.__u)==0&&s==c.key&&u==c.type)return l}return-1}function ct(e,t,n){t[0]=="-"?e.setProperty(t,n??""):e[t]=n==null?"":typeof n!="number"||hn.test(t)?n:n+"px"}function ye(e,t,n,o,i){var r,l;e:if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof o=="string"&&(e.style.cssText=o=""),o)for(t in o)n&&t in n||ct(e.style,t,"");if(n)for(t in n)o&&n[t]==o[t]||ct(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")r=t!=(t=t.replace(ft,"$1")),l=t.toLowerCase(),t=l in e||t=="onFocusOut"||t=="onFocusIn"?l.slice(2):t.slice(2),e.l||(e.l={}),e.l[t+r]=n,n?o?n[de]=o[de]:(n[de]=Oe,e.addEventListener(t,r?qe:We,r)):e.removeEventListener(t,r?qe:We,r);else{if(i=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{e[t]=n??"";break e}catch{}typeof n=="function"||(n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n))}}function ut(e){return function(t){if(this.l){var n=this.l[t.type+e];if(t[ve]==null)t[ve]=Oe++;else if(t[ve]<n[de])return;return n(T.event?T.event(t):t)}}}function je(e,t,n,o,i,r,l,s,u,c){var p,f,a,m,h,$,v,k,y,N,M,S,F,z,b,R,q=t.type;if(t.constructor!==void 0)return null;128&n.__u&&(u=!!(32&n.__u),r=[s=t.__e=n.__e]),(p=T.__b)&&p(t);e:if(typeof q=="function"){f=l.length;try{if(y=t.props,N=q.prototype&&q.prototype.render,M=(p=q.contextType)&&o[p.__c],S=p?M?M.props.value:p.__:o,n.__c?k=(a=t.__c=n.__c).__=a.__E:(N?t.__c=a=new q(y,S):(t.__c=a=new me(y,S),a.constructor=q,a.render=vn),M&&M.sub(a),a.state||(a.state={}),a.__n=o,m=a.__d=!0,a.__h=[],a._sb=[]),N&&a.__s==null&&(a.__s=a.state),N&&q.getDerivedStateFromProps!=null&&(a.__s==a.state&&(a.__s=ee({},a.__s)),ee(a.__s,q.getDerivedStateFromProps(y,a.__s))),h=a.props,$=a.state,a.__v=t,m)N&&q.getDerivedStateFromProps==null&&a.componentWillMount!=null&&a.componentWillMount(),N&&a.componentDidMount!=null&&a.__h.push(a.componentDidMount);else{if(N&&q.getDerivedStateFromProps==null&&y!==h&&a.componentWillReceiveProps!=null&&a.componentWillReceiveProps(y,S),t.__v==n.__v||!a.__e&&a.shouldComponentUpdate!=null&&a.shouldComponentUpdate(y,a.__s,S)===!1){t.__v!=n.__v&&(a.props=y,a.state=a.__s,a.__d=!1),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(K){K&&(K.__=t)}),Se.push.apply(a.__h,a._sb),a._sb=[],a.__h.length&&l.push(a),s=le(n);break e}a.componentWillUpdate!=null&&a.componentWillUpdate(y,a.__s,S),N&&a.componentDidUpdate!=null&&a.__h.push(function(){a.componentDidUpdate(h,$,v)})}if(a.context=S,a.props=y,a.__P=e,a.__e=!1,F=T.__r,z=0,N)a.state=a.__s,a.__d=!1,F&&F(t),p=a.render(a.props,a.state,a.context),Se.push.apply(a.__h,a._sb),a._sb=[];else do a.__d=!1,F&&F(t),p=a.render(a.props,a.state,a.context),a.state=a.__s;while(a.__d&&++z<25);a.state=a.__s,a.getChildContext!=null&&(o=ee(ee({},o),a.getChildContext())),N&&!m&&a.getSnapshotBeforeUpdate!=null&&(v=a.getSnapshotBeforeUpdate(h,$)),b=p!=null&&p.type===Ce&&p.key==null?yt(p.props.children):p,s=ht(e,Re(b)?b:[b],t,n,o,i,r,l,s,u,c),a.base=t.__e,t.__u&=-161,a.__h.length&&l.push(a),k&&(a.__E=a.__=null)}catch(K){if(l.length=f,t.__v=null,u||r!=null){if(K.then){for(t.__u|=u?160:128;s&&s.nodeType==8&&s.nextSibling;)s=s.nextSibling;r!=null&&(r[r.indexOf(s)]=null),t.__e=s}else if(r!=null)for(R=r.length;R--;)He(r[R])}else t.__e=n.__e;t.__k==null&&(t.__k=n.__k||[]),K.then||bt(t),T.__e(K,t,n)}}else r==null&&t.__v==n.__v?(t.__k=n.__k,t.__e=n.__e):s=t.__e=yn(n.__e,t,n,o,i,r,l,u,c);return(p=T.diffed)&&p(t),128&t.__u?void 0:s}function bt(e){e&&(e.__c&&(e.__c.__e=!0),e.__k&&e.__k.some(bt))}function gt(e,t,n){for(var o=0;o<n.length;o++)Ge(n[o],n[++o],n[++o]);T.__c&&T.__c(t,e),e.some(function(i){try{e=i.__h,i.__h=[],e.some(function(r){r.call(i)})}catch(r){T.__e(r,i.__v)}})}function yt(e){return typeof e!="object"||e==null||e.__b>0?e:Re(e)?e.map(yt):e.constructor!==void 0?null:ee({},e)}function yn(e,t,n,o,i,r,l,s,u){var c,p,f,a,m,h,$,v=n.props||ke,k=t.props,y=t.type;if(y=="svg"?i="http://www.w3.org/2000/svg":y=="math"?i="http://www.w3.org/1998/Math/MathML":i||(i="http://www.w3.org/1999/xhtml"),r!=null){for(c=0;c<r.length;c++)if((m=r[c])&&"setAttribute"in m==!!y&&(y?m.localName==y:m.nodeType==3)){e=m,r[c]=null;break}}if(e==null){if(y==null)return document.createTextNode(k);e=document.createElementNS(i,y,k.is&&k),s&&(T.__m&&T.__m(t,r),s=!1),r=null}if(y==null)v===k||s&&e.data==k||(e.data=k);else{if(r=y=="textarea"&&k.defaultValue!=null?null:r&&xe.call(e.childNodes),!s&&r!=null)for(v={},c=0;c<e.attributes.length;c++)v[(m=e.attributes[c]).name]=m.value;for(c in v)m=v[c],c=="dangerouslySetInnerHTML"?f=m:c=="children"||c in k||c=="value"&&"defaultValue"in k||c=="checked"&&"defaultChecked"in k||ye(e,c,null,m,i);for(c in k)m=k[c],c=="children"?a=m:c=="dangerouslySetInnerHTML"?p=m:c=="value"?h=m:c=="checked"?$=m:s&&typeof m!="function"||v[c]===m||ye(e,c,m,v[c],i);if(p)s||f&&(p.__html==f.__html||p.__html==e.innerHTML)||(e.innerHTML=p.__html),t.__k=[];else if(f&&(e.innerHTML=""),ht(t.type=="template"?e.content:e,Re(a)?a:[a],t,n,o,y=="foreignObject"?"http://www.w3.org/1999/xhtml":i,r,l,r?r[0]:n.__k&&le(n,0),s,u),r!=null)for(c=r.length;c--;)He(r[c]);s&&y!="textarea"||(c="value",y=="progress"&&h==null?e.removeAttribute("value"):h!=null&&(h!==e[c]||y=="progress"&&!h||y=="option"&&h!=v[c])&&ye(e,c,h,v[c],i),c="checked",$!=null&&$!=e[c]&&ye(e,c,$,v[c],i))}return e}function Ge(e,t,n){try{if(typeof e=="function"){var o=typeof e.__u=="function";o&&e.__u(),o&&t==null||(e.__u=e(t))}else e.current=t}catch(i){T.__e(i,n)}}function vt(e,t,n){var o,i;if(T.unmount&&T.unmount(e),(o=e.ref)&&(o.current&&o.current!=e.__e||Ge(o,null,t)),(o=e.__c)!=null){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(r){T.__e(r,t)}o.base=o.__P=o.__n=null}if(o=e.__k)for(i=0;i<o.length;i++)o[i]&&vt(o[i],t,n||typeof e.type!="function");n||He(e.__e),e.__c=e.__=e.__e=void 0}function vn(e,t,n){return this.constructor(e,n)}function Be(e,t,n){var o,i,r,l;t==document&&(t=document.documentElement),T.__&&T.__(e,t),i=(o=typeof n=="function")?null:n&&n.__k||t.__k,r=[],l=[],je(t,e=(!o&&n||t).__k=Te(Ce,null,[e]),i||ke,ke,t.namespaceURI,!o&&n?[n]:i?null:t.firstChild?xe.call(t.childNodes):null,r,!o&&n?n:i?i.__e:t.firstChild,o,l),gt(r,e,l),e.props.children=null}xe=Se.slice,T={__e:function(e,t,n,o){for(var i,r,l;t=t.__;)if((i=t.__c)&&!i.__)try{if((r=i.constructor)&&r.getDerivedStateFromError!=null&&(i.setState(r.getDerivedStateFromError(e)),l=i.__d),i.componentDidCatch!=null&&(i.componentDidCatch(e,o||{}),l=i.__d),l)return i.__E=i}catch(s){e=s}throw e}},pt=0,fn=function(e){return e!=null&&e.constructor===void 0},me.prototype.setState=function(e,t){var n;n=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=ee({},this.state),typeof e=="function"&&(e=e(ee({},n),this.props)),e&&ee(n,e),e!=null&&this.__v&&(t&&this._sb.push(t),lt(this))},me.prototype.forceUpdate=function(e){this.__v&&(this.__e=!0,e&&this.__h.push(e),lt(this))},me.prototype.render=Ce,oe=[],dt=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,mt=function(e,t){return e.__v.__b-t.__v.__b},Ee.__r=0,Le=Math.random().toString(8),ve="__d"+Le,de="__a"+Le,ft=/(PointerCapture)$|Capture$/i,Oe=0,We=ut(!1),qe=ut(!0),_n=0;var te={roles:new Set,perms:new Set,users:new Set},Pe=new Set,Ve=!1;function Ke(e,t){return typeof t!="string"||t===""||e.has(t)?!1:(e.size>=5e3&&e.delete(e.values().next().value),e.add(t),!0)}function ze(e){let t=!1;for(let n of Array.isArray(e)?e:[e])!n||typeof n!="object"||(t=Ke(te.roles,n.role)|t,t=Ke(te.perms,n.name)|t,t=Ke(te.users,n.user)|t);t&&!Ve&&(Ve=!0,queueMicrotask(()=>{Ve=!1,Pe.forEach(n=>n())}))}function wt(e,t){te[e].delete(t)&&Pe.forEach(n=>n())}function kt(e){return Pe.add(e),()=>Pe.delete(e)}var Xe="rolegate.console.key",St=location.pathname.replace(/console\/[^/]*$/,""),Ye=()=>sessionStorage.getItem(Xe)||"",Et=e=>sessionStorage.setItem(Xe,e),Je=()=>sessionStorage.removeItem(Xe),xt=!0,B=()=>xt,Rt=e=>{xt=e};async function Tt(){try{let e=await fetch(new URL(St+"api/whoami",location.origin),{headers:{Accept:"application/json"},credentials:"same-origin",cache:"no-store",referrerPolicy:"no-referrer"});if(!e.ok)return null;let t=await e.json();return t&&t.success===!0&&t.data&&t.data.user?t.data:null}catch{return null}}var fe=class extends Error{constructor(t,n){super(n),this.status=t}},Ct=()=>{},Pt=e=>{Ct=e},Ut=()=>{},At=e=>{Ut=e},g=encodeURIComponent;async function E(e,t,{query:n,body:o,key:i,total:r}={}){if(t.split("/").some(a=>a==="."||a===".."))throw new fe(400,'The names "." and ".." cannot be sent in a URL path from a browser (it would reach another route); use rolegatectl or the REST API');let l=new URL(St+"api/"+t,location.origin);for(let[a,m]of Object.entries(n||{}))m!=null&&m!==""&&l.searchParams.set(a,String(m));let s=i??Ye(),u={Accept:"application/json"};s&&(u.Authorization="Bearer "+s);let c={method:e,headers:u,credentials:s?"omit":"same-origin",cache:"no-store",referrerPolicy:"no-referrer"};o!==void 0&&(u["Content-Type"]="application/json",c.body=JSON.stringify(o));let p;for(let a=0;;a++){try{p=await fetch(l,c)}catch(h){throw new fe(0,"The server cannot be reached ("+h.message+")")}if(p.status!==429||a>0)break;let m=Math.min(10,Math.max(0,Number(p.headers.get("Retry-After"))||1));Ut(m),await new Promise(h=>setTimeout(h,m*1e3))}let f=null;try{f=await p.json()}catch{}if(!p.ok||!f||f.success!==!0){let a=f&&f.message?f.message:p.status+" "+p.statusText;throw f&&f.error&&f.error!==f.message&&(a+=": "+f.error),p.status===429&&(a="The server is busy (429), even after waiting as it asked: "+a),p.status===401&&i===void 0&&Ct(a),new fe(p.status,a)}if(r){let a=p.headers.get("X-Total-Count"),m=a===null||a===""?NaN:Number(a);return{data:f.data,total:Number.isSafeInteger(m)&&m>=0?m:null}}return f.data}async function O(e,t){let n=await E("GET",e,{query:t});return ze(n),n}async function _e(e,t){let{data:n,total:o}=await E("GET",e,{query:t,total:!0});return ze(n),{items:n,total:o}}var J=(e,t)=>_e(e,{...t,total:"true"}),wn=new Intl.Collator(void 0,{numeric:!0,sensitivity:"variant"}),X=(e,t)=>wn.compare(e,t)||(e<t?-1:e>t?1:0);var Dt=function(e,t,n,o){var i;t[0]=0;for(var r=1;r<t.length;r++){var l=t[r++],s=t[r]?(t[0]|=l?1:2,n[t[r++]]):t[++r];l===3?o[0]=s:l===4?o[1]=Object.assign(o[1]||{},s):l===5?(o[1]=o[1]||{})[t[++r]]=s:l===6?o[1][t[++r]]+=s+"":l?(i=e.apply(s,Dt(e,s,n,["",null])),o.push(i),s[0]?t[0]|=2:(t[r-2]=0,t[r]=i)):o.push(s)}return o},It=new Map;function Nt(e){var t=It.get(this);return t||(t=new Map,It.set(this,t)),(t=Dt(this,t.get(e)||(t.set(e,t=(function(n){for(var o,i,r=1,l="",s="",u=[0],c=function(a){r===1&&(a||(l=l.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,a,l):r===3&&(a||l)?(u.push(3,a,l),r=2):r===2&&l==="..."&&a?u.push(4,a,0):r===2&&l&&!a?u.push(5,0,!0,l):r>=5&&((l||!a&&r===5)&&(u.push(r,0,l,i),r=6),a&&(u.push(r,a,0,i),r=6)),l=""},p=0;p<n.length;p++){p&&(r===1&&c(),c(p));for(var f=0;f<n[p].length;f++)o=n[p][f],r===1?o==="<"?(c(),u=[u],r=3):l+=o:r===4?l==="--"&&o===">"?(r=1,l=""):l=o+l[0]:s?o===s?s="":l+=o:o==='"'||o==="'"?s=o:o===">"?(c(),r=1):r&&(o==="="?(r=5,i=l,l=""):o==="/"&&(r<5||n[p][f+1]===">")?(c(),r===3&&(u=u[0]),r=u,(u=u[0]).push(2,0,r),r=0):o===" "||o==="	"||o===`
`||o==="\r"?(c(),r=2):l+=o),r===3&&l==="!--"&&(r=4,u=u[0])}return c(),u})(e)),t),arguments,[])).length>1?t:t[0]}var d=Nt.bind(Te);var he,P,Ze,Ft,$e=0,Gt=[],I=T,Mt=I.__b,Lt=I.__r,Wt=I.diffed,qt=I.__c,Ot=I.unmount,Ht=I.__;function et(e,t){I.__h&&I.__h(P,e,$e||t),$e=0;var n=P.__H||(P.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function _(e){return $e=1,kn(zt,e)}function kn(e,t,n){var o=et(he++,2);if(o.t=e,!o.__c&&(o.__=[n?n(t):zt(void 0,t),function(s){var u=o.__N?o.__N[0]:o.__[0],c=o.t(u,s);u!==c&&(o.__N=[c,o.__[1]],o.__c.setState({}))}],o.__c=P,!P.__f)){var i=function(s,u,c){if(!o.__c.__H)return!0;var p=!1,f=o.__c.props!==s;if(o.__c.__H.__.some(function(m){if(m.__N){p=!0;var h=m.__[0];m.__=m.__N,m.__N=void 0,h!==m.__[0]&&(f=!0)}}),r){var a=r.call(this,s,u,c);return p?a||f:a}return!p||f};P.__f=!0;var r=P.shouldComponentUpdate,l=P.componentWillUpdate;P.componentWillUpdate=function(s,u,c){if(this.__e){var p=r;r=void 0,i(s,u,c),r=p}l&&l.call(this,s,u,c)},P.shouldComponentUpdate=i}return o.__N||o.__}function H(e,t){var n=et(he++,3);!I.__s&&Kt(n.__H,t)&&(n.__=e,n.u=t,P.__H.__h.push(n))}function re(e){return $e=5,Bt(function(){return{current:e}},[])}function Bt(e,t){var n=et(he++,7);return Kt(n.__H,t)&&(n.__=e(),n.__H=t,n.__h=e),n.__}function Vt(e,t){return $e=8,Bt(function(){return e},t)}function Sn(){for(var e;e=Gt.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(Ue),t.__h.some(Qe),t.__h=[]}catch(n){t.__h=[],I.__e(n,e.__v)}}}I.__b=function(e){P=null,Mt&&Mt(e)},I.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),Ht&&Ht(e,t)},I.__r=function(e){Lt&&Lt(e),he=0;var t=(P=e.__c).__H;t&&(Ze===P?(t.__h=[],P.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})):(t.__h.some(Ue),t.__h.some(Qe),t.__h=[],he=0)),Ze=P},I.diffed=function(e){Wt&&Wt(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&(Gt.push(t)!==1&&Ft===I.requestAnimationFrame||((Ft=I.requestAnimationFrame)||En)(Sn)),t.__H.__.some(function(n){n.u&&(n.__H=n.u,n.u=void 0)})),Ze=P=null},I.__c=function(e,t){t.some(function(n){try{n.__h.some(Ue),n.__h=n.__h.filter(function(o){return!o.__||Qe(o)})}catch(o){t.some(function(i){i.__h&&(i.__h=[])}),t=[],I.__e(o,n.__v)}}),qt&&qt(e,t)},I.unmount=function(e){Ot&&Ot(e);var t,n=e.__c;n&&n.__H&&(n.__H.__.some(function(o){try{Ue(o)}catch(i){t=i}}),n.__H=void 0,t&&I.__e(t,n.__v))};var jt=typeof requestAnimationFrame=="function";function En(e){var t,n=function(){clearTimeout(o),jt&&cancelAnimationFrame(t),setTimeout(e)},o=setTimeout(n,35);jt&&(t=requestAnimationFrame(n))}function Ue(e){var t=P,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),P=t}function Qe(e){var t=P;e.__c=e.__(),P=t}function Kt(e,t){return!e||e.length!==t.length||t.some(function(n,o){return n!==e[o]})}function zt(e,t){return typeof t=="function"?t(e):t}var C=50;function L(e,t,n,o=!0,i=C,r=0){let l=JSON.stringify(n),[s,u]=_({key:l,cursors:[void 0]}),c=s.key===l?s.cursors:[void 0],[p,f]=_(0),a=p+r,m=c[c.length-1],h=JSON.stringify([l,c.length,m??null,o]),[$,v]=_({question:"",tick:-1,items:[],total:null,error:""});H(()=>{if(!o){v({question:h,tick:a,items:[],total:null,error:""});return}let M=!0;return e(m).then(S=>M&&v(Array.isArray(S)||!S?{question:h,tick:a,items:S||[],total:null,error:""}:{question:h,tick:a,items:S.items||[],total:S.total??null,error:""}),S=>M&&v({question:h,tick:a,items:[],total:null,error:S.message})),()=>{M=!1}},[h,a]);let k=$.question===h,y=k?$.items:[],N=!k||$.tick!==a;return{items:y,loading:N,current:k,total:k?$.total:null,error:k?$.error:"",page:c.length,hasNext:k&&y.length>=i,hasPrev:c.length>1,next:()=>y.length&&u({key:l,cursors:[...c,t(y[y.length-1])]}),prev:()=>u({key:l,cursors:c.slice(0,-1)}),reload:()=>f(M=>M+1)}}function xn({p:e,label:t,total:n,size:o=C}){if(!e.hasPrev&&!e.hasNext)return null;let i=n>0?Math.max(1,Math.ceil(n/o)):0;return d`<nav class="pager" aria-label=${t+" pages"}>
    <button type="button" onClick=${e.prev} disabled=${!e.hasPrev}>Previous page</button>
    <span>Page ${e.page}${i?" of "+i:""}</span>
    <button type="button" onClick=${e.next} disabled=${!e.hasNext}>Next page</button>
  </nav>`}function ne({text:e,id:t}){return e?d`<p class="error" role="alert" id=${t}>${e}</p>`:null}function w({id:e,label:t,value:n,onInput:o,required:i,placeholder:r,type:l,hint:s,list:u,note:c}){let p=[s&&e+"-hint",c&&e+"-new"].filter(Boolean).join(" ");return d`<div class="field">
    <label for=${e}>${t}${i?"":d` <span class="opt">(optional)</span>`}</label>
    <input id=${e} name=${e} type=${l||"text"} value=${n} required=${i} placeholder=${r}
      list=${u} autocomplete="off" spellcheck=${!1} aria-describedby=${p||void 0}
      onInput=${f=>o(f.currentTarget.value)} />
    ${s&&d`<small id=${e+"-hint"}>${s}</small>`}
    ${c&&d`<small class="note" id=${e+"-new"}>${c}</small>`}
  </div>`}var Y="known-roles",Z="known-perms",V="known-users";function ot(){let[,e]=_(0);H(()=>kt(()=>e(n=>n+1)),[]);let t=n=>[...n].sort(X).map(o=>d`<option key=${o} value=${o} />`);return d`<datalist id=${Y}>${t(te.roles)}</datalist>
    <datalist id=${Z}>${t(te.perms)}</datalist>
    <datalist id=${V}>${t(te.users)}</datalist>`}function se(e,t){let n=t.trim();if(!n||te[e].has(n))return"";let o={perms:"permission",roles:"role",users:"user"}[e];return"\u201C"+n+"\u201D is not a "+o+" name seen so far: check the spelling."}var Ae={owner:"",text:"",kind:"",at:""},tt=new Set;function ce(e,t,n="ok",o=location.hash){Ae={owner:e,text:t,kind:n,at:o},tt.forEach(i=>i())}var Yt=()=>ce("","","");function j({owner:e}){let[,t]=_(0);H(()=>{let r=()=>t(l=>l+1);return tt.add(r),()=>tt.delete(r)},[]);let n=Ae.owner===e&&Ae.at===location.hash?Ae:null,o=n?n.text:"",i=n?n.kind:"";return d`<p id=${e+"-status"} class=${"msg "+i} role=${i==="error"?"alert":"status"}
    aria-live=${i==="error"?"assertive":"polite"}>${o}</p>`}function D(e){let[t,n]=_(!1),[o,i]=_(""),r=re(!0);H(()=>()=>{r.current=!1},[]);let l=Vt(async s=>{let u=location.hash;n(!0),i("");let c=()=>r.current&&location.hash===u;try{let p=await s();return e&&typeof p=="string"&&c()&&ce(e,p,"ok",u),p}catch(p){if(!c())return;e?ce(e,p.message,"error",u):i(p.message);return}finally{r.current&&n(!1)}},[e]);return{busy:t,error:o,run:l,setError:i}}function U({p:e,label:t,empty:n,render:o,id:i,total:r,counted:l,prefix:s,size:u}){let c=r??e.total,p=c!=null&&!e.error&&e.current;return d`<div class="list" id=${i} aria-busy=${e.loading?"true":"false"}>
    ${e.error&&d`<div class="failed"><p class="error" role="alert">${e.error}</p>
      <button type="button" class="retry" onClick=${e.reload}>Retry</button></div>`}
    ${l&&p&&c>0&&d`<p class="count" id=${i+"-count"}>${G(c)} ${c===1?l[0]:l[1]}${s?" starting with \u201C"+s+"\u201D":""}</p>`}
    ${e.loading&&e.items.length===0&&!e.error&&d`<p class="loading">Loading…</p>`}
    ${!e.loading&&!e.error&&e.items.length===0&&d`<p class="empty">${n}</p>`}
    ${e.items.length>0&&d`<ul aria-label=${t}>${e.items.map(o)}</ul>`}
    <${xn} p=${e} label=${t} total=${c} size=${u} />
  </div>`}var G=e=>Number(e).toLocaleString("en"),A=(...e)=>"#/"+e.map(encodeURIComponent).join("/");function Xt(e,t=Date.now()){let n=new Date(e),o=r=>String(r).padStart(2,"0"),i=o(n.getHours())+":"+o(n.getMinutes());return Math.abs(n-t)<6*864e5?n.toLocaleDateString("en-GB",{weekday:"short"})+" "+i:n.getFullYear()+"-"+o(n.getMonth()+1)+"-"+o(n.getDate())+" "+i}function nt(e){return[e.starts_at&&"from "+Xt(e.starts_at),e.expires_at&&"until "+Xt(e.expires_at)].filter(Boolean).join(", ")}function ie({x:e}){let t=nt(e);if(!t)return null;let n=[e.starts_at&&"from "+e.starts_at,e.expires_at&&"until "+e.expires_at].filter(Boolean).join(", ");return d`<span class=${e.held===!1?"bounds outside":"bounds"} title=${n}>${t}${e.held===!1?" \xB7 not held now":""}</span>`}function Jt(e){let t=e.scope?"in scope \u201C"+e.scope+"\u201D":"globally",n=e.chain.length>1?", which inherits along "+e.chain.join(" \u2192 "):"",o=e.membership_bounds?" ("+nt(e.membership_bounds)+")":"",i=e.grant_bounds?" ("+nt(e.grant_bounds)+")":"";return"member of "+e.membership+" "+t+o+n+"; granted to "+e.granted_by+i}function Q({id:e,label:t,value:n,onInput:o,list:i}){return d`<div class="search" role="search">
    <${w} id=${e} label=${t} value=${n} onInput=${o} list=${i} type="search"
      hint="Names starting with this text; empty: all." />
  </div>`}function ae(e,t=250){let[n,o]=_(e);return H(()=>{let i=setTimeout(()=>o(e),t);return()=>clearTimeout(i)},[e,t]),n}var Ie="rolegate.console.drafts";function Zt(){let e={};document.querySelectorAll("main input[id]:not([type=password]):not([type=search])").forEach(t=>{t.value&&(e[t.id]=t.value)}),Object.keys(e).length&&sessionStorage.setItem(Ie,JSON.stringify({at:location.hash,values:e}))}function Rn(e){let t;try{t=JSON.parse(sessionStorage.getItem(Ie)||"null")}catch{t=null}if(!t||t.at!==location.hash||!(e in t.values))return;let n=t.values[e];return delete t.values[e],Object.keys(t.values).length?sessionStorage.setItem(Ie,JSON.stringify(t)):sessionStorage.removeItem(Ie),n}function x(e,t=""){return _(()=>Rn(e)??t)}function W(e){setTimeout(()=>{let t=typeof e=="string"?document.querySelector(e):e;t&&t.isConnected&&t.focus()},0)}function De(e){let t=ae(e.trim(),300),[n,o]=_({name:"",unknown:!1});return H(()=>{if(!t)return;let i=!0;return E("GET","users",{query:{prefix:t,limit:1}}).then(r=>i&&o({name:t,unknown:!(r.length&&r[0].user===t)}),()=>i&&o({name:t,unknown:!1})),()=>{i=!1}},[t]),n.name===e.trim()&&n.unknown?"\u201C"+n.name+"\u201D holds no membership yet: check the spelling (a new user is fine).":""}function Qt(){let[e,t]=_(""),n=ae(e),o=L(m=>_e("roles",{limit:C,after:m,prefix:n}),m=>m.role,[n]),[i,r]=x("new-role"),[l,s]=x("new-role-desc"),[u,c]=_(""),p=re(null);H(()=>{!u&&p.current&&p.current.isConnected&&p.current.focus()},[u]);let f=D("new-role"),a=m=>{m.preventDefault(),f.run(async()=>{let $="Role "+(await E("POST","role/"+g(i),{body:l?{description:l}:void 0})).role+" created.";return r(""),s(""),o.reload(),W("#new-role"),$})};return d`
    ${B()&&d`<section aria-labelledby="new-role-h">
      <h2 id="new-role-h">New role</h2>
      <form class="inline" onSubmit=${a}>
        <${w} id="new-role" label="Role name" value=${i} onInput=${r} required />
        <${w} id="new-role-desc" label="Description" value=${l} onInput=${s} />
        <button type="submit" disabled=${f.busy}>Create role</button>
      </form>
      <${j} owner="new-role" />
    </section>`}
    <section aria-labelledby="roles-h">
      <h2 id="roles-h">Roles</h2>
      <${Q} id="find-role" label="Find roles" value=${e} onInput=${t} list=${Y} />
      <${j} owner="roles" />
      <${U} p=${o} label="Roles" id="roles-list" counted=${["role","roles"]} prefix=${n} empty=${n?"No role starts with \u201C"+n+"\u201D.":"No roles yet."} render=${m=>d`
        <li key=${m.role} class="row">
          <a href=${A("role",m.role)}>${m.role}</a>
          <span class="desc">${m.description}</span>
          ${B()&&d`<button type="button" class="danger" onClick=${h=>{p.current=h.currentTarget,c(m.role)}}
            aria-label=${"Delete role "+m.role}>Delete</button>`}
        </li>`} />
    </section>
    ${u&&d`<${Tn} role=${u} onClose=${m=>{c(""),m&&(wt("roles",u),ce("roles",m),o.reload(),p.current=null,W("#find-role"))}} />`}`}var Ne=100;function Tn({role:e,onClose:t}){let n=re(),[o,i]=_(null),[r,l]=_(""),s=D(),u=D();H(()=>{let m=n.current;m.showModal(),W("#cancel-delete");let h=()=>t("");return m.addEventListener("cancel",h),s.run(async()=>{let $="role/"+g(e),v=await O($),k=await O("members/"+g(e),{limit:Ne}),y=await O("role_permissions/"+g(e),{limit:Ne}),N=await O($+"/inherits",{limit:Ne}),M=await O($+"/inherited_by",{limit:Ne});i({counts:v.counts,members:k.map(S=>S.user),perms:y.map(S=>S.name),parents:N.map(S=>S.role),children:M.map(S=>S.role)}),v.counts.members+v.counts.scoped_members>0&&W("#confirm-name")}),()=>m.removeEventListener("cancel",h)},[e]);let c=o&&o.counts,p=c&&c.members+c.scoped_members>0,f=()=>s.run(async()=>{let m=await E("DELETE","role/"+g(e));t(m.deleted?"Role "+e+" deleted, with "+ue(c.members+c.scoped_members,"membership")+" and "+ue(c.permissions,"permission")+".":"Role "+e+" was already gone.")}),a=(m,h)=>h===0?"none":m.join(", ")+(h>m.length?" and "+(h-m.length)+" more":"");return d`<dialog ref=${n} aria-labelledby="del-h" aria-describedby="del-what" id="delete-dialog">
    <h2 id="del-h">Delete role “${e}”?</h2>
    <${ne} text=${s.error} />
    ${o?d`<div id="del-what">
      <p>This also removes, for good:</p>
      <ul class="cascade">
        <li><strong>${ue(c.members,"global membership")}</strong>: ${a(o.members,c.members)}</li>
        <li><strong>${ue(c.scoped_members,"membership")} in a scope</strong>${c.scoped_members?d` (<a href=${"#/members//"+encodeURIComponent(e)} onClick=${()=>t("")}>list them</a>)`:""}</li>
        <li><strong>${ue(c.permissions,"permission")}</strong>: ${a(o.perms,c.permissions)}</li>
        <li><strong>${ue(c.parents,"parent link")}</strong> (it inherits from): ${a(o.parents,c.parents)}</li>
        <li><strong>${ue(c.children,"child link")}</strong> (roles inheriting from it lose what it grants): ${a(o.children,c.children)}</li>
      </ul>
      <p>Re-creating the role brings none of this back. The audit log records these counts; the change feed names each membership.</p>
      <p><button type="button" id="export-role" disabled=${u.busy} onClick=${()=>u.run(()=>Cn(e))}>Export its grants and members (CSV)</button>
        ${u.busy?" Exporting\u2026":""}</p>
      <${ne} text=${u.error} />
      ${p&&d`<${w} id="confirm-name" label=${"Type "+e+" to confirm"} value=${r} onInput=${l} required />`}
    </div>`:d`<p id="del-what" aria-busy="true">Looking up what goes with it…</p>`}
    <div class="actions">
      <button type="button" class="danger" id="confirm-delete" onClick=${f}
        disabled=${!o||s.busy||p&&r!==e}>Delete ${e}</button>
      <button type="button" id="cancel-delete" onClick=${()=>t("")}>Cancel</button>
    </div>
  </dialog>`}async function Cn(e){let t=[["kind","name","scope"]],n=async(l,s,u,c)=>{let p;for(;;){let f=await O(l,{...s,limit:1e3,after:p});if(f.forEach(a=>t.push(u(a))),f.length<1e3)return;p=c(f[f.length-1])}};await n("role_permissions/"+g(e),{},l=>["grant",l.name,""],l=>l.name),await n("members/"+g(e),{},l=>["member",l.user,""],l=>l.user),await n("scoped_memberships",{role:e},l=>["member",l.user,l.scope],l=>l.scope+"/"+l.user+"/"+l.role);let o=t.map(l=>l.map(s=>/[",\n\r]/.test(s)?'"'+s.replace(/"/g,'""')+'"':s).join(",")).join(`\r
`)+`\r
`,i=URL.createObjectURL(new Blob([o],{type:"text/csv"})),r=document.createElement("a");r.href=i,r.download="role-"+e.replace(/[^A-Za-z0-9._-]/g,"_")+".csv",document.body.append(r),r.click(),r.remove(),setTimeout(()=>URL.revokeObjectURL(i),1e4)}function ue(e,t){return G(e)+" "+t+(e===1?"":"s")}function en({role:e}){let[t,n]=_(0),[o,i]=_({detail:null,error:""});H(()=>{let p=!0;return O("role/"+g(e)).then(f=>p&&i({detail:f,error:""}),f=>p&&i({detail:null,error:f.status===404?"Role \u201C"+e+"\u201D not found: there is no role of that name (create it on the Roles page).":f.message})),()=>{p=!1}},[e,t]);let r=()=>n(p=>p+1),l=o.detail!==null,s=o.detail?o.detail.counts:null,u={role:e,tick:t,changed:r,ok:l},c=p=>s?" ("+G(p==="members"?s.members+s.scoped_members:s[p])+")":"";return d`
    <p><a href="#/roles">← All roles</a></p>
    <p id="role-desc" class="about">${o.detail?o.detail.description||"No description.":""}</p>
    <${ne} text=${o.error} id="role-error" />
    ${l&&d`<nav class="toc" aria-label="On this page"><ul>
      <li><a href="#grants-h" onClick=${rt("grants-h")}>Grants${c("permissions")}</a></li>
      <li><a href="#parents-h" onClick=${rt("parents-h")}>Inherits${c("parents")}</a></li>
      <li><a href="#members-h" onClick=${rt("members-h")}>Members${c("members")}</a></li>
    </ul></nav>`}
    <fieldset class="plain" disabled=${!l}>
      <legend class="visually-hidden">Role ${e}</legend>
      ${l&&d`<${Pn} role=${e} current=${o.detail.description||""}
        done=${p=>i({detail:{...o.detail,description:p},error:""})} />`}
      <div class="cols">
        <${Un} ...${u} total=${s?s.permissions:null} />
        <${An} ...${u} total=${s?s.parents:null} />
      </div>
      ${l&&d`<${In} ...${u} count=${s.children} />
        <${Dn} ...${u} inherits=${s.parents>0} />`}
      <${Fn} ...${u} total=${s?s.members:null} />
    </fieldset>`}var rt=e=>t=>{t.preventDefault();let n=document.getElementById(e);n&&(n.scrollIntoView(),W(n))};function Pn({role:e,current:t,done:n}){if(!B())return null;let[o,i]=_(!1),[r,l]=_(t),s=D("describe"),u=()=>{i(!1),W("#edit-desc")};return d`<div class="describe">
    ${o?d`<form class="inline" onSubmit=${p=>{p.preventDefault(),s.run(async()=>{let f=await E("PUT","role/"+g(e),{body:{description:r}});return n(f.description),u(),f.description?"Description of "+e+" saved.":"Description of "+e+" cleared."})}}>
        <${w} id="role-desc-edit" label="Description" value=${r} onInput=${l} hint="Empty: no description." />
        <button type="submit" disabled=${s.busy}>Save description</button>
        <button type="button" onClick=${()=>{l(t),u()}}>Cancel</button>
      </form>`:d`<button type="button" id="edit-desc" onClick=${()=>{l(t),i(!0),W("#role-desc-edit")}}>Edit description</button>`}
    <${j} owner="describe" />
  </div>`}function st({id:e,label:t,button:n,add:o,extra:i,owner:r,list:l,note:s}){if(!B())return null;let[u,c]=x(e),p=D(r);return d`<form class="inline" onSubmit=${a=>{a.preventDefault(),p.run(async()=>{let m=await o(u);return c(""),W("#"+e),m})}}>
      <${w} id=${e} label=${t} value=${u} onInput=${c} required list=${l} note=${s?s(u):""} />
      ${i}
      <button type="submit" disabled=${p.busy}>${n}</button>
    </form>`}function it({label:e,remove:t,owner:n,heading:o}){if(!B())return null;let i=D(n);return d`<button type="button" class="danger" aria-label=${e} disabled=${i.busy}
    onClick=${r=>{let l=r.currentTarget.closest("li"),s=l&&(l.nextElementSibling||l.previousElementSibling);i.run(async()=>{let u=await t();return W(s&&s.querySelector("button.danger")||"#"+o),u})}}>Remove</button>`}function be(e,t,n,o,i,r,l){let[s,u]=_(""),c=ae(s),p=!!c||r===null,f=L(m=>p?J(e,{...t,limit:C,after:m,prefix:c}):O(e,{...t,limit:C,after:m}),n,[...o,c],i,C,l),a=p?f.total:r;return{p:f,find:s,setFind:u,prefix:c,total:a}}var Fe=e=>e.total!==null&&e.total!==void 0?" ("+G(e.total)+(e.prefix?" starting with \u201C"+e.prefix+"\u201D":"")+")":"";function Un({role:e,tick:t,changed:n,ok:o,total:i}){let r=be("role_permissions/"+g(e),{},s=>s.name,[e],o,i,t),l=s=>"permission/"+g(e)+"/"+g(s);return d`<section aria-labelledby="grants-h">
    <h2 id="grants-h" tabindex="-1">Permissions granted to ${e}${Fe(r)}</h2>
    <${st} id="grant-name" label="Permission" button="Grant" owner="grants" list=${Z} note=${s=>se("perms",s)} add=${async s=>(await E("POST",l(s)),n(),"Granted "+s+" to "+e+".")} />
    <${j} owner="grants" />
    <${Q} id="find-grant" label="Find grants" value=${r.find} onInput=${r.setFind} list=${Z} />
    ${o&&d`<${U} p=${r.p} total=${r.total} label="Granted permissions" id="grants-list"
      empty=${r.prefix?"No grant starts with \u201C"+r.prefix+"\u201D.":"No permissions granted directly."} render=${s=>d`
      <li key=${s.name} class=${s.held===!1?"row outside":"row"}><a href=${A("whocan",s.name)}>${s.name}</a>
        <${ie} x=${s} />
        <${it} owner="grants" heading="grants-h" label=${"Remove permission "+s.name} remove=${async()=>(await E("DELETE",l(s.name)),n(),"Removed "+s.name+" from "+e+".")} /></li>`} />`}
  </section>`}function An({role:e,tick:t,changed:n,ok:o,total:i}){let r=be("role/"+g(e)+"/inherits",{},s=>s.role,[e],o,i,t),l=s=>"role/"+g(e)+"/inherits/"+g(s);return d`<section aria-labelledby="parents-h">
    <h2 id="parents-h" tabindex="-1">${e} inherits from${Fe(r)}</h2>
    <${st} id="parent-name" label="Parent role" button="Inherit" owner="parents" list=${Y} note=${s=>se("roles",s)} add=${async s=>(await E("POST",l(s)),n(),e+" now inherits from "+s+".")} />
    <${j} owner="parents" />
    <${Q} id="find-parent" label="Find parents" value=${r.find} onInput=${r.setFind} list=${Y} />
    ${o&&d`<${U} p=${r.p} total=${r.total} label="Parent roles" id="parents-list"
      empty=${r.prefix?"No parent starts with \u201C"+r.prefix+"\u201D.":"Inherits from no role."} render=${s=>d`
      <li key=${s.role} class="row"><a href=${A("role",s.role)}>${s.role}</a>
        <${it} owner="parents" heading="parents-h" label=${"Remove parent "+s.role+" (stop inheriting from it)"} remove=${async()=>(await E("DELETE",l(s.role)),n(),e+" no longer inherits from "+s.role+".")} /></li>`} />`}
  </section>`}function tn({id:e,title:t,children:n,onToggle:o}){return d`<section aria-labelledby=${e+"-h"}>
    <details id=${e} onToggle=${i=>o(i.currentTarget.open)}>
      <summary><h2 id=${e+"-h"}>${t}</h2></summary>
      ${n}
    </details>
  </section>`}function In({role:e,tick:t,ok:n,count:o}){let[i,r]=_(!1),l=be("role/"+g(e)+"/inherited_by",{},s=>s.role,[e],n&&i&&o>0,o,t);return d`<${tn} id="children" title=${"Roles inheriting from "+e+" ("+G(o)+")"} onToggle=${r}>
    ${o===0?d`<p class="empty" id="children-list">None.</p>`:d`
      <${Q} id="find-child" label="Find roles inheriting" value=${l.find} onInput=${l.setFind} list=${Y} />
      <${U} p=${l.p} total=${l.total} label="Roles inheriting from it" id="children-list" empty="None." render=${s=>d`
      <li key=${s.role} class="row"><a href=${A("role",s.role)}>${s.role}</a></li>`} />`}
  <//>`}function Dn({role:e,tick:t,ok:n,inherits:o}){let[i,r]=_(!1),l=be("role_permissions/"+g(e),{effective:"true"},s=>s.name,[e],n&&i,null,t);return d`<${tn} id="effective" title=${"Effective permissions of "+e+(i?Fe(l):"")} onToggle=${r}>
    <${Q} id="find-effective" label="Find effective permissions" value=${l.find} onInput=${l.setFind} list=${Z} />
    <${U} p=${l.p} total=${l.total} label="Effective permissions" id="effective-list" empty="None, granted or inherited." render=${s=>d`
      <li key=${s.name+"/"+t} class="row wrap"><span class="name">${s.name}</span>
        ${o?d`<${Nn} role=${e} name=${s.name} />`:d`<span class="src">granted directly</span>`}</li>`} />
  <//>`}function Nn({role:e,name:t}){let[n,o]=_(""),i=async()=>{o("\u2026");try{let r=await O("permission/"+g(e)+"/"+g(t),{explain:"true"}),l=r.chain||[];o(r.result?l.length<=1?"granted directly":"inherited from "+l[l.length-1]+" ("+l.join(" \u2192 ")+")":"no longer held")}catch(r){o(r.message)}};return d`<button type="button" aria-label=${"Where from? "+t} onClick=${i}>Where from?</button>
    ${n&&d`<span class="src" role="status">${n}</span>`}`}function Fn({role:e,tick:t,changed:n,ok:o,total:i}){let[r,l]=x("member-scope"),[s,u]=_(""),c=be("members/"+g(e),{scope:s},a=>a.user,[e,s],o,s?null:i,t),p=a=>"membership/"+g(a)+"/"+g(e),f=a=>a?" of "+e+" in scope "+a:" global member of "+e;return d`<section aria-labelledby="members-h">
    <h2 id="members-h" tabindex="-1">Members of ${e}${Fe(c)}</h2>
    <${st} id="member-user" label="User" button="Add member" owner="members" list=${V} note=${De} add=${async a=>(await E("POST",p(a),{query:{scope:r.trim()}}),n(),a+" is now a"+(r.trim()?" member":"")+f(r.trim())+".")} extra=${d`<${w} id="member-scope" label="Scope" value=${r} onInput=${l}
      hint="Empty: a global membership, which holds in every scope." />`} />
    <${j} owner="members" />
    <div class="inline">
      <p class="hint" id="members-shown">Showing ${s?"members in scope \u201C"+s+"\u201D (global ones included)":"global members"}.</p>
      <button type="button" id="show-scope" onClick=${()=>u(r.trim())}>${r.trim()?"Show members in scope \u201C"+r.trim()+"\u201D":"Show global members"}</button>
    </div>
    <${Q} id="find-member" label="Find members" value=${c.find} onInput=${c.setFind} list=${V} />
    ${o&&d`<${U} p=${c.p} label="Members" id="members-list" total=${c.total}
      empty=${c.prefix?"No member starts with \u201C"+c.prefix+"\u201D.":"No members."} render=${a=>d`
      <li key=${a.user+"/"+(a.scope||"")} class=${a.held===!1?"row outside":"row"}><a href=${A("user",a.user)}>${a.user}</a>
        <span class=${a.scope?"scope":"scope global"}>${a.scope?"in scope "+a.scope:"global"}</span>
        <${ie} x=${a} />
        <${it} owner="members" heading="members-h" label=${"Remove "+a.user+(a.scope?" from scope "+a.scope:" (global member)")}
          remove=${async()=>{let m=await E("DELETE",p(a.user),{query:{scope:a.scope||void 0}});return n(),m.deleted?a.user+" is no longer a"+(a.scope?" member":"")+f(a.scope)+".":a.user+" was already not a"+(a.scope?" member":"")+f(a.scope)+"."}} /></li>`} />`}
  </section>`}function Me({go:e,initial:t}){let[n,o]=_(t||"");return d`<form class="inline" onSubmit=${i=>{i.preventDefault(),n.trim()&&e(A("user",n.trim()))}}>
    <${w} id="lookup-user" label="User" value=${n} onInput=${o} required list=${V} />
    <button type="submit">Show user</button>
  </form>`}function on({go:e}){let[t,n]=_(""),o=ae(t),i=L(r=>_e("users",{limit:C,after:r,prefix:o}),r=>r.user,[o]);return d`
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">Look up a user</h2>
      <${Me} go=${e} />
    </section>
    <section aria-labelledby="users-h">
      <h2 id="users-h">Users holding a membership</h2>
      <${Q} id="find-user" label="Find users" value=${t} onInput=${n} list=${V} />
      <${U} p=${i} label="Users" id="users-list" counted=${["user","users"]} prefix=${o} empty=${o?"No user starts with \u201C"+o+"\u201D.":"No user holds a membership."}
        render=${r=>d`<li key=${r.user} class="row"><a href=${A("user",r.user)}>${r.user}</a></li>`} />
    </section>`}var pe=e=>e?"in scope "+e:"globally";async function rn(e,t,n){let o=await O("has_permission/"+g(e)+"/"+g(t),{scope:n,explain:"true"});return o.result?e+" can "+t+" "+pe(n)+": yes, "+Jt(o.grant)+".":e+" cannot "+t+" "+pe(n)+"."}function sn({user:e,go:t}){let[n,o]=_(0),i=()=>o(r=>r+1);return d`
    <${Me} go=${t} initial=${e} />
    <div class="cols">
      <${Mn} user=${e} />
      <${Ln} user=${e} />
    </div>
    <${Wn} user=${e} changed=${i} />
    <div class="cols">
      <${qn} user=${e} tick=${n} changed=${i} />
      <${On} user=${e} tick=${n} changed=${i} />
    </div>
    <${Hn} user=${e} tick=${n} />
    <${Gn} user=${e} go=${t} />`}function Mn({user:e}){let[t,n]=x("check-perm"),[o,i]=x("user-scope"),[r,l]=_(null),s=D("check"),u=p=>{p.preventDefault();let f={perm:t.trim(),scope:o.trim()};l(null),s.run(async()=>{let a=await rn(e,f.perm,f.scope);l({...f,text:a,yes:a.includes(": yes")}),W("#check-result")})},c=r&&r.perm===t.trim()&&r.scope===o.trim()?r:null;return d`<section aria-labelledby="check-h">
    <h2 id="check-h">Can ${e} …?</h2>
    <form class="inline" onSubmit=${u}>
      <${w} id="check-perm" label="Permission" value=${t} onInput=${n} required list=${Z}
        note=${se("perms",t)} />
      <${w} id="user-scope" label="Scope" value=${o} onInput=${i} hint="Empty: globally (global memberships only)." />
      <button type="submit" disabled=${s.busy}>Check</button>
    </form>
    <${j} owner="check" />
    <p id="check-result" tabindex="-1" role="status" aria-busy=${s.busy?"true":"false"}
      class=${c?c.yes?"yes":"no":""}>${s.busy?"Checking\u2026":c?c.text:""}</p>
  </section>`}function Ln({user:e}){let[t,n]=x("where-perm"),[o,i]=_(""),r=L(u=>o?E("GET","where_can/"+g(e)+"/"+g(o),{query:{limit:C,after:u},total:!0}).then(({data:c,total:p})=>({items:c.scopes.map(f=>({scope:f})),total:p,global:c.global})).then(c=>(nn[e+"/"+o]=c.global,c)):Promise.resolve([]),u=>u.scope,[e,o]),l=o===t.trim(),s=nn[e+"/"+o];return d`<section aria-labelledby="where-h">
    <h2 id="where-h">Where can ${e} …?</h2>
    <form class="inline" onSubmit=${u=>{u.preventDefault(),i(t.trim())}}>
      <${w} id="where-perm" label="Permission" value=${t} onInput=${n} required list=${Z} />
      <button type="submit">Where?</button>
    </form>
    ${o&&l&&d`<div id="where-result">
      ${r.current&&!r.error&&d`<p class="answer">${s?e+" can "+o+" globally, in every scope"+(r.total?"; also granted in these scopes:":"."):r.total?e+" can "+o+" in "+G(r.total)+" scope"+(r.total===1?"":"s")+":":e+" cannot "+o+" anywhere."}</p>`}
      <${U} p=${r} label=${"Scopes where "+e+" can "+o} id="where-list" empty="" size=${C}
        render=${u=>d`<li key=${u.scope} class="row"><span class="scope">${u.scope}</span></li>`} />
    </div>`}
  </section>`}var nn={};function Wn({user:e,changed:t}){if(!B())return null;let[n,o]=x("add-role"),[i,r]=x("add-role-scope"),l=D("user-roles");return d`<section aria-labelledby="addr-h">
    <h2 id="addr-h">Give ${e} a role</h2>
    <form class="inline" onSubmit=${u=>{u.preventDefault();let c=n.trim(),p=i.trim();l.run(async()=>(await E("POST","membership/"+g(e)+"/"+g(c),{query:{scope:p}}),o(""),t(),W("#add-role"),e+" is now a member of "+c+" "+pe(p)+"."))}}>
      <${w} id="add-role" label="Role" value=${n} onInput=${o} required list=${Y} note=${se("roles",n)} />
      <${w} id="add-role-scope" label="Scope" value=${i} onInput=${r} hint="Empty: a global membership, which holds in every scope." />
      <button type="submit" disabled=${l.busy}>Add role</button>
    </form>
    <${j} owner="user-roles" />
  </section>`}function an(e,t,n,o,i,r){if(!B())return null;let l="Remove "+t+(n?" in scope "+n:" (global)");return d`<button type="button" class="danger" aria-label=${l} disabled=${i.busy} onClick=${s=>{let u=s.currentTarget.closest("li"),c=u&&(u.nextElementSibling||u.previousElementSibling);i.run(async()=>{let p=await E("DELETE","membership/"+g(e)+"/"+g(t),{query:{scope:n||void 0}});o();let f=c&&c.querySelector("button.danger");return W(f||r),p.deleted?e+" is no longer a member of "+t+" "+pe(n)+".":e+" was already not a member of "+t+" "+pe(n)+"."})}}>Remove</button>`}function qn({user:e,tick:t,changed:n}){let o=L(r=>J("user_roles/"+g(e),{limit:C,after:r}),r=>r.role,[e],!0,C,t),i=D("user-roles");return d`<section aria-labelledby="uroles-h">
    <h2 id="uroles-h" tabindex="-1">Global roles${o.total!==null?" ("+G(o.total)+")":""}</h2>
    <p class="hint">Held in every scope.</p>
    <${U} p=${o} label="Global roles of the user" id="user-roles" empty="Member of no role globally." render=${r=>d`
      <li key=${r.role} class=${r.held===!1?"row outside":"row"}><a href=${A("role",r.role)}>${r.role}</a>
        <${ie} x=${r} />
        ${an(e,r.role,"",n,i,"#uroles-h")}</li>`} />
  </section>`}function On({user:e,tick:t,changed:n}){let o=L(s=>J("scoped_memberships",{user:e,limit:C,after:s}),s=>s.scope+"/"+s.user+"/"+s.role,[e],!0,C,t),i=D("user-roles"),r=new Map;for(let s of o.items)r.has(s.scope)||r.set(s.scope,[]),r.get(s.scope).push(s);let l=[...r.keys()].sort(X);return d`<section aria-labelledby="scoped-roles-h">
    <h2 id="scoped-roles-h" tabindex="-1">Roles in scopes${o.total!==null?" ("+G(o.total)+")":""}</h2>
    <p class="hint">Each holds in its scope only.</p>
    <${U} p=${{...o,items:l}} label="Scoped roles of the user" id="user-scoped" empty="Member of no role in any scope."
      render=${s=>d`<li key=${s} class="group">
        <h3 class="scope-h">Scope ${s}</h3>
        <ul aria-label=${"Roles in scope "+s}>${r.get(s).sort((u,c)=>X(u.role,c.role)).map(u=>d`
          <li key=${u.role} class=${u.held===!1?"row outside":"row"}><a href=${A("role",u.role)}>${u.role}</a>
            <${ie} x=${u} />
            ${an(e,u.role,s,n,i,"#scoped-roles-h")}</li>`)}</ul></li>`} />
  </section>`}function Hn({user:e,tick:t}){let[n,o]=x("perms-scope"),[i,r]=_(""),[l,s]=_(""),u=ae(l),c=L(p=>J("user_permissions/"+g(e),{limit:C,after:p,scope:i,prefix:u}),p=>p.name,[e,i,u],!0,C,t);return d`<section aria-labelledby="uperms-h">
    <h2 id="uperms-h">Effective permissions ${pe(i)}${c.total!==null?" ("+G(c.total)+")":""}</h2>
    <form class="inline" onSubmit=${p=>{p.preventDefault(),r(n.trim())}}>
      <${w} id="perms-scope" label="Scope" value=${n} onInput=${o} hint="Empty: globally." />
      <button type="submit">Show scope</button>
    </form>
    <${Q} id="find-perm" label="Find permissions" value=${l} onInput=${s} list=${Z} />
    <${U} p=${c} label="Effective permissions of the user" id="user-perms" empty=${u?"None starts with \u201C"+u+"\u201D.":"No permissions."}
      render=${p=>d`<${jn} key=${p.name+"/"+i+"/"+t} user=${e} name=${p.name} scope=${i} />`} />
  </section>`}function jn({user:e,name:t,scope:n}){let[o,i]=_("");return d`<li class="row wrap"><span class="name">${t}</span>
    <button type="button" aria-label=${"Why? "+t} onClick=${async()=>{i("\u2026");let r;try{r=await rn(e,t,n)}catch(l){r=l.message}i(r)}}>Why?</button>
    ${o&&d`<span class="why" role="status">${o}</span>`}</li>`}function Gn({user:e,go:t}){if(!B())return null;let[n,o]=x("rename-to"),[i,r]=_(!1),l=D("rename");return d`<section aria-labelledby="rename-h">
    <h2 id="rename-h">Rename ${e}</h2>
    <form class="inline" onSubmit=${u=>{u.preventDefault();let c=n.trim();l.run(async()=>{let p=await E("POST","user/"+g(e)+"/rename/"+g(c),{query:{merge:i?"true":void 0}}),f=e+" renamed to "+c+": "+p.moved+" membership"+(p.moved===1?"":"s")+" moved.",a=A("user",c);t(a),setTimeout(()=>ce("rename",f,"ok",a),50)})}}>
      <${w} id="rename-to" label="New name" value=${n} onInput=${o} required
        hint="Every membership, global and in every scope, moves to the new name; the audit log records the rename." />
      <div class="check"><input type="checkbox" id="rename-merge" checked=${i} onChange=${u=>r(u.currentTarget.checked)} />
        <label for="rename-merge">Merge into a user who already has memberships</label></div>
      <button type="submit" disabled=${l.busy}>Rename</button>
    </form>
    <${j} owner="rename" />
  </section>`}function ln({go:e,scope:t,role:n,user:o}){let i=L(b=>J("scoped_memberships",{limit:C,after:b,scope:t,role:n,user:o}),b=>b.scope+"/"+b.user+"/"+b.role,[t,n,o]),[r,l]=x("f-scope",t),[s,u]=x("f-role",n),[c,p]=x("f-user",o),[f,a]=x("m-user"),[m,h]=x("m-role"),[$,v]=x("m-scope"),k=D("add-membership"),y=D("scoped"),N=De(f),M=b=>{b.preventDefault();let R=f.trim(),q=m.trim(),K=$.trim();k.run(async()=>(await E("POST","membership/"+g(R)+"/"+g(q),{query:{scope:K}}),a(""),i.reload(),W("#m-user"),R+" is now a member of "+q+(K?" in scope "+K:" globally")+"."))},S=b=>{b.preventDefault();let R=[r.trim(),s.trim(),c.trim()];for(;R.length&&!R[R.length-1];)R.pop();e(R.length?"#/members/"+R.map(encodeURIComponent).join("/"):"#/members")},F=[t&&"scope "+t,n&&"role "+n,o&&"user "+o].filter(Boolean).join(", "),z=[...i.items].sort((b,R)=>X(b.scope,R.scope)||X(b.user,R.user)||X(b.role,R.role));return d`
    ${B()&&d`<section aria-labelledby="addm-h">
      <h2 id="addm-h">Add a membership</h2>
      <form class="inline" onSubmit=${M}>
        <${w} id="m-user" label="User" value=${f} onInput=${a} required list=${V} note=${N} />
        <${w} id="m-role" label="Role" value=${m} onInput=${h} required list=${Y} note=${se("roles",m)} />
        <${w} id="m-scope" label="Scope" value=${$} onInput=${v} hint="Empty: global, in every scope." />
        <button type="submit" disabled=${k.busy}>Add membership</button>
      </form>
      <${j} owner="add-membership" />
    </section>`}
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">A user's roles and permissions</h2>
      <${Me} go=${e} />
      <p class="hint">Global members are listed on each role's page and each user's.</p>
    </section>
    <section aria-labelledby="scoped-h">
      <h2 id="scoped-h" tabindex="-1">Memberships in one scope${F?": "+F:""}${i.total!==null?" ("+G(i.total)+")":""}</h2>
      <form class="inline filters" onSubmit=${S} aria-label="Filter memberships">
        <${w} id="f-scope" label="Scope" value=${r} onInput=${l} hint="Exactly this scope; empty: every scope." />
        <${w} id="f-role" label="Role" value=${s} onInput=${u} list=${Y} />
        <${w} id="f-user" label="User" value=${c} onInput=${p} list=${V} />
        <button type="submit">Filter</button>
      </form>
      <${j} owner="scoped" />
      <${U} p=${{...i,items:z}} label="Scoped memberships" id="scoped-list" total=${i.total}
        empty=${F?"No scoped membership of "+F+".":"No scoped memberships."} render=${b=>d`
        <li key=${b.scope+"/"+b.user+"/"+b.role} class=${b.held===!1?"row outside":"row"}>
          <span class="scope">${b.scope}</span>
          <span class="grow"><a href=${A("user",b.user)}>${b.user}</a> is a member of <a href=${A("role",b.role)}>${b.role}</a></span>
          <${ie} x=${b} />
          ${B()&&d`<button type="button" class="danger" aria-label=${"Remove "+b.user+" from "+b.role+" in scope "+b.scope}
            onClick=${R=>{let q=R.currentTarget.closest("li"),K=q&&(q.nextElementSibling||q.previousElementSibling);y.run(async()=>(await E("DELETE","membership/"+g(b.user)+"/"+g(b.role),{query:{scope:b.scope}}),i.reload(),W(K&&K.querySelector("button.danger")||"#scoped-h"),b.user+" is no longer a member of "+b.role+" in scope "+b.scope+"."))}}>Remove</button>`}</li>`} />
    </section>`}function un({name:e,scope:t,go:n}){let[o,i]=_(e||""),[r,l]=_(t||""),s=L(p=>e?J("which_users_can/"+g(e),{limit:C,after:p,scope:t}):Promise.resolve([]),p=>p.user,[e,t]),u=L(p=>e?J("which_roles_can/"+g(e),{limit:C,after:p}):Promise.resolve([]),p=>p.role,[e]),c=p=>p.total!==null?" ("+G(p.total)+")":"";return d`
    <form class="inline" onSubmit=${p=>{p.preventDefault(),o.trim()&&n(r.trim()?A("whocan",o.trim(),r.trim()):A("whocan",o.trim()))}}>
      <${w} id="whocan-perm" label="Permission" value=${o} onInput=${i} required list=${Z} />
      <${w} id="whocan-scope" label="Scope" value=${r} onInput=${l} hint="Empty: global memberships only." />
      <button type="submit">Who can?</button>
    </form>
    ${e&&d`<div class="cols">
      <section aria-labelledby="wu-h">
        <h2 id="wu-h">Users who can ${e}${t?" in scope "+t:""}${c(s)}</h2>
        <${U} p=${s} label="Users" id="whocan-users" counted=${["user","users"]} empty="Nobody." render=${p=>d`
          <li key=${p.user} class="row"><a href=${A("user",p.user)}>${p.user}</a></li>`} />
      </section>
      <section aria-labelledby="wr-h">
        <h2 id="wr-h">Roles that hold ${e}${c(u)}</h2>
        <${U} p=${u} label="Roles" id="whocan-roles" counted=${["role","roles"]} empty="No role." render=${p=>d`
          <li key=${p.role} class="row"><a href=${A("role",p.role)}>${p.role}</a></li>`} />
      </section>
    </div>`}`}var Bn=["add_role","set_description","del_role","add_permission","del_permission","add_membership","del_membership","add_inheritance","del_inheritance","rename_user","batch"],Vn=e=>e?"removed "+[[e.grants,"grant"],[e.memberships,"global membership"],[e.scoped_memberships,"scoped membership"],[e.parents,"parent link"],[e.children,"child link"]].map(([t,n])=>G(t)+" "+n+(t===1?"":"s")).join(", "):"",cn=(e,t)=>{if(!/^\d{4}-\d{2}-\d{2}$/.test(e))return;let n=new Date(e+"T00:00:00Z");return t&&n.setUTCDate(n.getUTCDate()+1),n.toISOString()};function pn(){let[e,t]=x("audit-action"),[n,o]=x("audit-actor"),[i,r]=x("audit-resource"),[l,s]=x("audit-from"),[u,c]=x("audit-to"),[p,f]=_({}),a=L($=>O("audit",{limit:C,before:$,...p}),$=>$.id,[p]),m=$=>{$.preventDefault();let v=n.trim();f({action:e.trim()||void 0,actor:v&&!/^(user|key):|^(library|anonymous)$/.test(v)?"user:"+v:v||void 0,resource:i.trim()||void 0,since:cn(l),until:cn(u,!0)})},h=Object.entries(p).filter(([,$])=>$).map(([$,v])=>$+" "+v).join(", ");return d`
    <form class="inline filters" onSubmit=${m} aria-label="Filter the audit log">
      <${w} id="audit-action" label="Action" value=${e} onInput=${t} list="audit-actions" hint="Empty: every action." />
      <datalist id="audit-actions">${Bn.map($=>d`<option value=${$} />`)}</datalist>
      <${w} id="audit-actor" label="Who" value=${n} onInput=${o} list=${V} hint="A user's name, user:NAME, key:XXXXXXXX or library." />
      <${w} id="audit-resource" label="Resource" value=${i} onInput=${r} hint="role:NAME, membership:USER, permission:ROLE…" />
      <${w} id="audit-from" type="date" label="From (UTC)" value=${l} onInput=${s} />
      <${w} id="audit-to" type="date" label="To (UTC)" value=${u} onInput=${c} />
      <button type="submit">Filter</button>
    </form>
    ${a.error&&d`<div class="failed"><${ne} text=${a.error} /><button type="button" class="retry" onClick=${a.reload}>Retry</button></div>`}
    <div class="table-wrap">
      <table id="audit-table" aria-busy=${a.loading?"true":"false"}>
        <caption>Audit records, newest first${h?", "+h:""}</caption>
        <thead><tr><th scope="col">When (UTC)</th><th scope="col">Action</th><th scope="col">Resource</th>
          <th scope="col">Outcome</th><th scope="col">Who</th><th scope="col">Reason</th><th scope="col">Request</th></tr></thead>
        <tbody>${a.items.map($=>d`<tr key=${$.id}>
          <td data-label="When"><time datetime=${$.at}>${$.at.replace("T"," ").replace(/\.\d+Z$/,"")}</time></td>
          <td data-label="Action">${$.action}</td><td data-label="Resource">${$.resource}${$.detail?d`<br /><small class="detail">${Vn($.detail)}</small>`:""}</td>
          <td data-label="Outcome">${$.outcome}</td><td data-label="Who" class="actor">${$.actor}</td>
          <td data-label="Reason">${$.reason}</td><td data-label="Request" class="mono">${$.request_id}</td></tr>`)}</tbody>
      </table>
    </div>
    ${a.loading&&a.items.length===0&&d`<p class="loading">Loading…</p>`}
    ${!a.loading&&!a.error&&a.items.length===0&&d`<p class="empty">No records.</p>`}
    <nav class="pager" aria-label="Audit pages">
      <button type="button" onClick=${a.prev} disabled=${!a.hasPrev}>Newer</button>
      <span>Page ${a.page}</span>
      <button type="button" onClick=${a.next} disabled=${!a.hasNext}>Older</button>
    </nav>`}function dn({me:e}){return d`${[...e.members].sort((t,n)=>X(t.scope,n.scope)).map(t=>d`<${Kn} key=${t.scope} d=${t} />`)}`}var ge=e=>e?"in scope "+e:"globally";function Kn({d:e}){let[t,n]=_(0),[o,i]=_(""),[r,l]=_(e.roles[0]||""),s="d-"+(e.scope||"global").replace(/[^A-Za-z0-9_-]/g,"_"),u=D(s),c=f=>{f.preventDefault(),u.run(async()=>(await E("POST","membership/"+g(o)+"/"+g(r),{query:{scope:e.scope}}),i(""),n(a=>a+1),o+" is now a member of "+r+" "+ge(e.scope)+"."))},p=e.scope?"Scope "+e.scope:"Every scope (global)";return d`<section aria-labelledby=${s+"-h"}>
    <h2 id=${s+"-h"}>${p}</h2>
    ${e.roles.length===0?d`<p>You hold rolegate.members ${ge(e.scope)}, but no role whose every permission you hold there.</p>`:d`
    <form class="inline" onSubmit=${c}>
      <${w} id=${s+"-user"} label="User" value=${o} onInput=${i} required list=${V} />
      <div class="field">
        <label for=${s+"-role"}>Role</label>
        <select id=${s+"-role"} value=${r} onChange=${f=>l(f.currentTarget.value)}>
          ${[...e.roles].sort(X).map(f=>d`<option value=${f}>${f}</option>`)}
        </select>
      </div>
      <button type="submit" disabled=${u.busy}>Add member</button>
    </form>`}
    <${j} owner=${s} />
    ${e.roles.map(f=>d`<${zn} key=${f+"/"+t} role=${f} scope=${e.scope} owner=${s} />`)}
  </section>`}function zn({role:e,scope:t,owner:n}){let[o,i]=_(0),r=L(u=>O("members/"+g(e),{scope:t||void 0,limit:C,after:u}),u=>typeof u=="string"?u:u.user,[e,t,o]),l=D(n),s=r.items.filter(u=>(u.scope||"")===t);return d`<div class="delegated-role">
    <h3>${e}</h3>
    <${U} p=${{...r,items:s}} label=${"Members of "+e} id=${"members-"+e}
      empty=${"No member of "+e+" "+ge(t)+"."} render=${u=>d`
      <li key=${u.user} class="row">
        <span class="grow">${u.user}</span>
        <button type="button" class="danger" aria-label=${"Remove "+u.user+" from "+e+" "+ge(t)}
          onClick=${()=>l.run(async()=>(await E("DELETE","membership/"+g(u.user)+"/"+g(e),{query:{scope:t}}),i(c=>c+1),u.user+" is no longer a member of "+e+" "+ge(t)+"."))}>Remove</button>
      </li>`} />
  </div>`}function mn(){let e=location.hash.replace(/^#\/?/,"").split("/").map(t=>{try{return decodeURIComponent(t)}catch{return""}});return{page:e[0]||"roles",arg:e[1]||"",arg2:e[2]||"",arg3:e[3]||""}}var Xn=[["roles","Roles"],["members","Members"],["user","Users"],["whocan","Who can"],["audit","Audit log"]];function Yn({onIn:e,reason:t,me:n}){let[o,i]=_(""),[r,l]=_(t),[s,u]=_(!1),c=async p=>{p.preventDefault(),u(!0),l("");try{await E("GET","roles",{query:{limit:1},key:o.trim()}),Et(o.trim()),e()}catch(f){l(f.message)}finally{u(!1)}};return d`<main class="signin" id="main">
    <h1>rolegate console</h1>
    ${n&&d`<p id="no-admin">You are signed in as <strong>${n.user}</strong>, who holds none of rolegate.admin, rolegate.read or rolegate.members. An admin key still works:</p>`}
    <form onSubmit=${c}>
      <${w} id="client-key" type="password" label="Client key" value=${o} onInput=${i} required
        hint="An admin key (AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS). Each key is a namespace of its own, not a user: only AUTH_CLIENT_KEY's is the one the app's guards read. The key stays in this tab only and is forgotten when the tab closes." />
      <button type="submit" disabled=${s}>Sign in</button>
    </form>
    <${ne} text=${r} id="signin-error" />
  </main>`}function Jn({me:e,person:t}){if(!e)return null;let n=e.host?"the app\u2019s namespace":"another namespace ("+e.actor+"), not the app\u2019s";return d`<span class="who" id="signed-in-as">${t?d`Signed in as <strong>${e.user}</strong>${e.admin?"":e.read?" (read only)":""}`:"Signed in with a client key"}<span class="ns" id="namespace"> · in ${n}</span></span>`}function Zn(){let[e,t]=_(!!Ye()),[n,o]=_(void 0),[i,r]=_(null),[l,s]=_(""),[u,c]=_(mn()),[p,f]=_(!1),[a,m]=_(0),h=re(),$=re(!1);H(()=>{let b=()=>{$.current=!0,c(mn()),f(!1),Yt()};return addEventListener("hashchange",b),Pt(R=>{Zt(),Je(),s(R),t(!1),o(null),r(null)}),At(R=>{m(R),setTimeout(()=>m(0),R*1e3)}),()=>removeEventListener("hashchange",b)},[]),H(()=>{e||n!==void 0||Tt().then(b=>{o(b)})},[e,n]),H(()=>{e&&E("GET","whoami").then(b=>r(b),()=>{})},[e]),H(()=>{$.current&&h.current&&h.current.focus()},[u.page,u.arg,u.arg2,u.arg3]);let v=!e&&n,k=e||v&&(n.admin||n.read);if(!e&&n===void 0)return d`<main id="main"><p aria-busy="true">Loading…</p></main>`;if(!e&&(!n||!k&&n.members.length===0))return d`<${Yn} reason=${l} me=${n} onIn=${()=>{s(""),t(!0)}} />`;Rt(e||n.admin);let y=d`<${Jn} me=${v?n:i} person=${!!v} />`,N=v?d`<button type="button" class="signout" onClick=${()=>{o(null),s("")}}>Use a client key</button>`:d`<button type="button" class="signout" onClick=${()=>{Je(),t(!1),o(void 0),r(null)}}>Sign out</button>`,M=a>0&&d`<span class="waiting" role="status">The server is busy: trying again in ${a} s…</span>`;if(!k)return document.title="Your members \xB7 rolegate console",d`
      <header>
        <span class="brand">rolegate</span>
        ${y}
        ${N}
        ${M}
      </header>
      <main id="main">
        <h1 tabindex="-1" ref=${h}>Members you manage</h1>
        <div class="page"><${dn} me=${n} /></div>
      </main>
      <${ot} />`;let S=b=>{location.hash=b},F,z;switch(u.page){case"role":F="Role "+u.arg,z=d`<${en} role=${u.arg} />`;break;case"members":F="Members",z=d`<${ln} scope=${u.arg} role=${u.arg2} user=${u.arg3} go=${S} />`;break;case"user":F=u.arg?"User "+u.arg:"Users",z=u.arg?d`<${sn} user=${u.arg} go=${S} />`:d`<${on} go=${S} />`;break;case"whocan":F=u.arg?"Who can "+u.arg:"Who can",z=d`<${un} name=${u.arg} scope=${u.arg2} go=${S} />`;break;case"audit":F="Audit log",z=d`<${pn} />`;break;default:F="Roles",z=d`<${Qt} />`}return document.title=F+" \xB7 rolegate console",d`
    <a class="skip" href="#main" onClick=${b=>{b.preventDefault(),h.current&&h.current.focus()}}>Skip to content</a>
    <header class=${p?"open":""}>
      <span class="brand">rolegate</span>
      <button type="button" class="menu" aria-expanded=${p?"true":"false"} aria-controls="console-nav"
        onClick=${()=>f(!p)}>Menu</button>
      <nav aria-label="Console" id="console-nav">
        <ul>${Xn.map(([b,R])=>d`<li><a href=${"#/"+b} aria-current=${u.page===b?"page":void 0}>${R}</a></li>`)}</ul>
      </nav>
      ${y}
      ${N}
      ${M}
    </header>
    <main id="main">
      <h1 tabindex="-1" ref=${h}>${F}</h1>
      <div key=${[u.page,u.arg,u.arg2,u.arg3].join("/")} class="page">${z}</div>
    </main>
    <${ot} />`}Be(d`<${Zn} />`,document.getElementById("app"));
